import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { searchAll, searchPage, stem } from './search-calls';

// GET /api/search?type=people (server/discovery/search-people.ts; docs/decisions/0025-discovery.md,
// "Search"), on both engines, which must find the same people: the exact handle, then handles
// that start with what was typed (in handle order), then names with a word starting with each word
// typed, accents and case folded (most followed first); only active members, never one blocked
// either way or muted by the viewer.

let t: TestApp;
let viewer: TestUser;
const T0 = 1_760_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t.deps, { name: 'Viewer' });
});
afterAll(async () => {
  await t?.close();
});

async function member(name: string, handle: string, followers = 0): Promise<TestUser> {
  const user = await createUser(t.deps, { name });
  await t.deps.db.updateTable('profiles').set({ handle, followers_count: followers }).where('id', '=', user.id).execute();
  return user;
}

const handles = (items: Array<{ handle: string }>) => items.map((i) => i.handle);

describe('people search', () => {
  it('puts the exact handle first, then handle prefixes in order, then names, most followed first', async () => {
    const s = stem('ana');
    const exact = await member('Exact Owner', s, 1);
    const longer = [await member('Longer B', `${s}_b`, 500), await member('Longer A', `${s}.a`, 0), await member('Longer C', `${s}z`, 9)];
    const byName = [
      await member(`Maria ${s} Lopez`, stem('zed'), 7),
      await member(`${s.toUpperCase()} Silva`, stem('yak'), 40),
      await member(`Pedro ${s}x`, stem('xen'), 7),
    ];
    // A name with the stem inside a word, not at its start, is not a match.
    await member(`Bob Mc${s}`, stem('wil'), 1000);
    const items = (await searchPage(t, viewer, 'people', `@${s.toUpperCase()}`)).items;
    expect(items[0]).toEqual({ id: exact.id, handle: s, name: 'Exact Owner', followers_count: 1, viewer: { following: false } });
    // Handles in byte order: '.' < '_' < 'z'.
    expect(handles(items.slice(1, 4))).toEqual([`${s}.a`, `${s}_b`, `${s}z`]);
    expect(items.slice(1, 4).map((i: { id: string }) => i.id)).toEqual([longer[1]!.id, longer[0]!.id, longer[2]!.id]);
    // Names: 40 followers first, then the two with 7 by handle.
    const sevens = [byName[0]!, byName[2]!].map((u) => u.id);
    expect(items.slice(4).map((i: { id: string }) => i.id)).toEqual([
      byName[1]!.id,
      ...(await t.deps.db.selectFrom('profiles').select(['id', 'handle']).where('id', 'in', sevens).orderBy('handle').execute()).map((r) => r.id),
    ]);
    expect(items.length).toBe(7);
  });

  it('folds accents and case in names ("jose" finds "José"), matches each word’s start, and says whom the viewer follows', async () => {
    const last = stem('garcia');
    const jose = await member(`José ${last.replace('garcia', 'García')}`, stem('jg'));
    const other = await member(`JOSEFINA ${last}`, stem('jf'));
    await t.deps.db.insertInto('follows').values({ follower_id: viewer.id, followee_id: other.id, created_at: T0 }).execute();
    for (const q of [`jose ${last}`, `JOSÉ ${last.toUpperCase()}`, `${last} jos`, `Jo ${last}`]) {
      const items = await searchAll(t, viewer, 'people', q);
      expect(items.map((i) => i.id).sort(), q).toEqual([jose.id, other.id].sort());
      expect(items.find((i) => i.id === other.id).viewer.following, q).toBe(true);
    }
    // "josé" alone is the prefix of both first names; "josef" only of one.
    expect((await searchAll(t, viewer, 'people', `josef ${last}`)).map((i) => i.id)).toEqual([other.id]);
    // A word that starts inside another word matches nothing.
    expect(await searchAll(t, viewer, 'people', `osé ${last}`)).toEqual([]);
  });

  it('finds a name in Devanagari by its word', async () => {
    const word = `प्रिया${randomUUID()
      .replace(/\D/g, '')
      .slice(0, 3)
      .replace(/\d/g, (d) => String.fromCodePoint(0x966 + Number(d)))}`;
    const priya = await member(`${word} शर्मा`, stem('priya'));
    expect((await searchAll(t, viewer, 'people', word)).map((i) => i.id)).toEqual([priya.id]);
  });

  it('pages across the tiers without gaps or repeats', async () => {
    const s = stem('pag');
    const made: string[] = [];
    for (let i = 0; i < 25; i++) made.push((await member(`Someone ${i}`, `${s}${String(i).padStart(2, '0')}`)).id);
    for (let i = 0; i < 25; i++) made.push((await member(`${s} Named ${i}`, stem('nm'), i % 4)).id);
    const items = await searchAll(t, viewer, 'people', s);
    expect(items.length).toBe(50);
    expect(items.map((i) => i.id).sort()).toEqual([...made].sort());
    expect(handles(items.slice(0, 25))).toEqual([...handles(items.slice(0, 25))].sort());
    const followers = items.slice(25).map((i) => i.followers_count);
    expect(followers).toEqual([...followers].sort((a, b) => b - a));
  });

  it('leaves out suspended, inactive, blocked (either way) and muted members', async () => {
    const s = stem('safe');
    const shown = await member(`${s} Shown`, `${s}shown`);
    const suspended = await member(`${s} Suspended`, `${s}susp`);
    await t.deps.db.updateTable('profiles').set({ account_status: 'suspended' }).where('id', '=', suspended.id).execute();
    const inactive = await member(`${s} Inactive`, `${s}inact`);
    await t.deps.db.updateTable('profiles').set({ is_active: 0 }).where('id', '=', inactive.id).execute();
    const [blocked, blocker, muted] = [await member(`${s} B`, `${s}b`), await member(`${s} C`, `${s}c`), await member(`${s} M`, `${s}m`)];
    const all = [shown, blocked, blocker, muted].map((u) => u.id).sort();
    expect((await searchAll(t, viewer, 'people', s)).map((i) => i.id).sort()).toEqual(all);
    await t.deps.db
      .insertInto('blocks')
      .values([
        { blocker_id: viewer.id, blocked_id: blocked.id, created_at: T0 },
        { blocker_id: blocker.id, blocked_id: viewer.id, created_at: T0 },
      ])
      .execute();
    await t.deps.db.insertInto('mutes').values({ muter_id: viewer.id, muted_id: muted.id, created_at: T0 }).execute();
    // Each way of finding them: the exact handle, a handle prefix, the name.
    for (const q of [s, `${s}b`, `${s}c`, `${s}m`, `${s} b`, `${s} m`])
      expect(
        (await searchAll(t, viewer, 'people', q)).map((i) => i.id).filter((id) => id !== shown.id),
        q,
      ).toEqual([]);
    expect((await searchAll(t, viewer, 'people', s)).map((i) => i.id)).toEqual([shown.id]);
  });
});
