import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { searchAll, searchPage, searchPath, stem } from './search-calls';

// GET /api/search?type=videos (server/discovery/search-videos.ts; docs/decisions/0025-discovery.md,
// "Search"), on both engines: words of the title and description, any script, accents and case
// folded, the last word a prefix; title matches above the others, then newest first; paging; only
// ready videos of active authors the viewer has not blocked or muted (nor been blocked by).

let t: TestApp;
let viewer: TestUser;
let maker: TestUser;
const T0 = 1_760_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t.deps, { name: 'Viewer' });
  maker = await createUser(t.deps, { name: 'Maker' });
});
afterAll(async () => {
  await t?.close();
});

/** A word no other test uses, of letters only (digits in a word are fine too, but keep it plain). */
const word = stem;
const ready = (owner: string, title: string, description = '', at = T0, overrides = {}) =>
  insertVideo(t.deps, owner, { title, description, created_at: at, media_status: 'ready', ...overrides });
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

describe('video search', () => {
  it('finds words in any case and accent, a Hindi title by a Hindi word, and the last word as a prefix', async () => {
    const w = word('jose');
    const accented = await ready(maker.id, `Con ${w.replace('jose', 'José')} en la playa`);
    const hindiWord = `दोस्तों${randomUUID().replace(/\D/g, '').slice(0, 0)}`;
    const hindi = await ready(maker.id, `नमस्ते ${hindiWord} ${w}`);
    expect(ids((await searchPage(t, viewer, 'videos', w.toUpperCase())).items).sort()).toEqual([accented, hindi].sort());
    const found = await searchAll(t, viewer, 'videos', `${hindiWord} ${w}`);
    expect(ids(found)).toEqual([hindi]);
    // "sun" finds "sunset": the last word as the member types it.
    const sun = word('sunset');
    const sunset = await ready(maker.id, `Evening ${sun}`);
    expect(ids(await searchAll(t, viewer, 'videos', sun.slice(0, sun.length - 3)))).toEqual([sunset]);
    // Every word must match: a second word nobody wrote finds nothing.
    expect((await searchPage(t, viewer, 'videos', `${sun} ${word('nothing')}`)).items).toEqual([]);
    const item = (await searchPage(t, viewer, 'videos', sun)).items[0];
    expect(item).toMatchObject({ id: sunset, user_id: maker.id, user_name: 'Maker', media_status: 'ready', liked_by_me: false, title: `Evening ${sun}` });
  });

  it('ranks a title match above a description-only match, ties newest first, and pages without gaps or repeats', async () => {
    const w = word('river');
    const made: Array<{ id: string; title: boolean; at: number }> = [];
    // 46 videos, the word in the title of every third, two at each instant: ties split by id.
    for (let i = 0; i < 46; i++) {
      const inTitle = i % 3 === 0;
      const at = T0 + Math.floor(i / 2) * 1000;
      made.push({ id: await ready(maker.id, inTitle ? `The ${w}` : 'Untitled', inTitle ? '' : `By the ${w}`, at), title: inTitle, at });
    }
    const expected = [...made].sort((a, b) => Number(b.title) - Number(a.title) || b.at - a.at || (a.id < b.id ? 1 : -1)).map((m) => m.id);
    const items = await searchAll(t, viewer, 'videos', w);
    expect(ids(items)).toEqual(expected);
    // An older title match still comes before the newest description match.
    const oldTitle = made.find((m) => m.title)!;
    const newestDescription = [...made].reverse().find((m) => !m.title)!;
    expect(ids(items).indexOf(oldTitle.id)).toBeLessThan(ids(items).indexOf(newestDescription.id));
    expect(newestDescription.at).toBeGreaterThan(oldTitle.at);
  });

  it('marks the viewer’s likes', async () => {
    const w = word('liked');
    const id = await ready(maker.id, `A ${w}`);
    await t.deps.db.insertInto('likes').values({ video_id: id, user_id: viewer.id, created_at: T0 }).execute();
    expect((await searchPage(t, viewer, 'videos', w)).items[0]).toMatchObject({ id, liked_by_me: true });
  });

  it('leaves out processing videos, suspended authors, members blocked either way and muted members', async () => {
    const w = word('hidden');
    const shown = await ready(maker.id, `Shown ${w}`);
    await ready(maker.id, `Processing ${w}`, '', T0, { media_status: 'processing' });
    const suspended = await createUser(t.deps, { name: 'Suspended' });
    await ready(suspended.id, `Suspended ${w}`);
    await t.deps.db.updateTable('profiles').set({ account_status: 'suspended' }).where('id', '=', suspended.id).execute();
    const [blocked, blocker, muted] = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    const videos = {
      blocked: await ready(blocked.id, `Blocked ${w}`),
      blocker: await ready(blocker.id, `Blocker ${w}`),
      muted: await ready(muted.id, `Muted ${w}`),
    };
    // Before any block or mute, the viewer sees them all but the processing and suspended ones.
    expect(ids(await searchAll(t, viewer, 'videos', w)).sort()).toEqual([shown, videos.blocked, videos.blocker, videos.muted].sort());
    await t.deps.db
      .insertInto('blocks')
      .values([
        { blocker_id: viewer.id, blocked_id: blocked.id, created_at: T0 },
        { blocker_id: blocker.id, blocked_id: viewer.id, created_at: T0 },
      ])
      .execute();
    await t.deps.db.insertInto('mutes').values({ muter_id: viewer.id, muted_id: muted.id, created_at: T0 }).execute();
    expect(ids(await searchAll(t, viewer, 'videos', w))).toEqual([shown]);
    // The blocked member no longer sees the viewer's… nothing here is the viewer's; the blocker still sees the muted one's.
    expect(ids(await searchAll(t, blocker, 'videos', w)).sort()).toEqual([shown, videos.blocked, videos.blocker, videos.muted].sort());
  });

  it('answers 200 for hostile text, never reading it as FTS5 or tsquery syntax', async () => {
    const w = word('safe');
    const id = await ready(maker.id, `Quoted ${w} here`);
    // The syntax characters are separators: the word alone is still found.
    for (const q of [`"${w}"`, `${w}*`, `${w}:*`, `'${w}'`, `${w}\\`, `-${w}`, `(${w})`, `${w} &`, `^${w}`, `${w}|`, `${w}"*`])
      expect(ids((await searchPage(t, viewer, 'videos', q)).items), q).toEqual([id]);
    // Operator words are words like any other (nobody wrote them here): no error, nothing found.
    for (const q of [`${w} OR x`, `${w} AND NOT`, `NEAR(${w} x)`, `title:${w}`, `{title}:${w}`])
      expect((await searchPage(t, viewer, 'videos', q)).items, q).toEqual([]);
    for (const q of ['"', '*', ':', '&', '|', '!', "'", '\\', 'OR', 'NEAR(', ')(', '"*:&|!()', '\u0301', '::*', '^', '%_']) {
      const res = await call(t.app, 'GET', searchPath('videos', q), undefined, viewer.token);
      expect([q, res.status], res.text).toEqual([q, 200]);
    }
  });
});
