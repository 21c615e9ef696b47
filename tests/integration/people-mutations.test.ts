import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

// setHandle, follow and unfollow through the real push (docs/sync.md, "Mutations"), on SQLite and
// PostgreSQL: the handle rules and their refusal codes, the follow rules, and counters that stay
// exact when many members follow one member at once and when it all is sent again.

let t: TestApp;

beforeAll(async () => {
  // Many connections on PostgreSQL (the pushes below really run side by side), no rate limit in the way.
  t = await createTestApp({ MEDIA_WORKER: 'off', DATABASE_POOL_SIZE: '24', PUSH_RATE_BURST: '100000' });
});
afterAll(async () => {
  await t?.close();
});

type Result = { id: number; status: 'applied' | 'duplicate' | 'rejected'; error?: { code: string; message: string } };
type Mutation = { id: number; name: string; args: Record<string, unknown> };

async function push(user: TestUser, mutations: Mutation[], clientId = randomUUID()): Promise<Result[]> {
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token);
  expect(res.status, res.text).toBe(200);
  return res.json.results as Result[];
}

/** One mutation from a fresh device: its result. */
async function once(user: TestUser, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await push(user, [{ id: 1, name, args }]))[0]!;
}

const profileOf = (id: string) =>
  t.deps.db.selectFrom('profiles').select(['handle', 'updated_at', 'followers_count', 'following_count']).where('id', '=', id).executeTakeFirstOrThrow();

const followRows = async (followeeId: string) =>
  Number(
    (
      await t.deps.db
        .selectFrom('follows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('followee_id', '=', followeeId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const members = (n: number, name: string) => Promise.all(Array.from({ length: n }, (_, i) => createUser(t.deps, { name: `${name} ${i}` })));

describe('setHandle', () => {
  let asha: TestUser;
  let ravi: TestUser;

  beforeAll(async () => {
    [asha, ravi] = await Promise.all([createUser(t.deps, { name: 'Asha' }), createUser(t.deps, { name: 'Ravi' })]);
  });

  it('takes a valid handle, stored lower case without the @', async () => {
    expect(await once(asha, 'setHandle', { handle: 'asha_rao' })).toMatchObject({ status: 'applied' });
    expect((await profileOf(asha.id)).handle).toBe('asha_rao');
    expect(await once(asha, 'setHandle', { handle: '  @Asha.Rao ' })).toMatchObject({ status: 'applied' });
    expect((await profileOf(asha.id)).handle).toBe('asha.rao');
  });

  it.each([
    ['too short', 'ab', 'A handle is 3 to 30 characters.'],
    ['too long', `a${'b'.repeat(30)}`, 'A handle is 3 to 30 characters.'],
    ['a digit first', '1asha', 'A handle starts with a letter.'],
    ['a character outside the set', 'asha-rao', 'A handle uses only letters, digits, _ and .'],
    ['reserved', 'Admin', 'That handle is reserved.'],
    ['reserved (a route)', 'rewards', 'That handle is reserved.'],
  ])('refuses a handle %s with invalid and the rule, changing nothing', async (_what, handle, message) => {
    const before = await profileOf(ravi.id);
    expect(await once(ravi, 'setHandle', { handle })).toMatchObject({ status: 'rejected', error: { code: 'invalid', message } });
    expect(await profileOf(ravi.id)).toEqual(before);
  });

  it("refuses another member's handle, whatever the case typed, with handle_taken", async () => {
    const before = await profileOf(ravi.id);
    expect(await once(ravi, 'setHandle', { handle: 'ASHA.rao' })).toMatchObject({
      status: 'rejected',
      error: { code: 'handle_taken', message: 'That handle is taken.' },
    });
    expect(await profileOf(ravi.id)).toEqual(before);
  });

  it('setting the current handle again changes nothing (no write, no change to pull)', async () => {
    const before = await profileOf(asha.id);
    const seq = await t.deps.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirstOrThrow();
    t.advance(5);
    expect(await once(asha, 'setHandle', { handle: 'asha.rao' })).toMatchObject({ status: 'applied' });
    expect(await profileOf(asha.id)).toEqual(before);
    const after = await t.deps.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirstOrThrow();
    expect(String(after.seq)).toBe(String(seq.seq));
  });

  it('members racing for one handle: exactly one wins, the others are told handle_taken, never a 500', async () => {
    const racers = await members(6, 'Racer');
    for (let round = 0; round < 5; round++) {
      const handle = `race_${round}_${randomUUID().slice(0, 8)}`;
      const results = await Promise.all(racers.map((r) => once(r, 'setHandle', { handle })));
      expect(results.filter((r) => r.status === 'applied')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => r.error?.code)).toEqual(Array(racers.length - 1).fill('handle_taken'));
      const holders = await t.deps.db.selectFrom('profiles').select('id').where('handle', '=', handle).execute();
      expect(holders).toHaveLength(1);
    }
  });
});

describe('follow and unfollow', () => {
  let ann: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    [ann, bob] = await Promise.all([createUser(t.deps, { name: 'Ann' }), createUser(t.deps, { name: 'Bob' })]);
  });

  it('refuses following oneself, and a member who does not exist or is not active, changing nothing', async () => {
    expect(await once(ann, 'follow', { userId: ann.id })).toMatchObject({
      status: 'rejected',
      error: { code: 'invalid', message: "You can't follow yourself." },
    });
    expect(await once(ann, 'follow', { userId: randomUUID() })).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
    const suspended = await createUser(t.deps, { name: 'Suspended', isActive: false });
    const unpaid = await createUser(t.deps, { name: 'Unpaid', status: 'pending_payment' });
    for (const other of [suspended, unpaid]) {
      expect(await once(ann, 'follow', { userId: other.id })).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
      expect(await followRows(other.id)).toBe(0);
    }
    expect(await profileOf(ann.id)).toMatchObject({ following_count: 0, followers_count: 0 });
  });

  it('a follow moves both counts once; its replay and a second follow from another device change nothing', async () => {
    const clientId = randomUUID();
    const first = [{ id: 1, name: 'follow', args: { userId: bob.id } }];
    expect(await push(ann, first, clientId)).toEqual([{ id: 1, status: 'applied' }]);
    expect(await push(ann, first, clientId)).toEqual([{ id: 1, status: 'duplicate' }]);
    expect(await once(ann, 'follow', { userId: bob.id })).toMatchObject({ status: 'applied' });
    expect(await followRows(bob.id)).toBe(1);
    expect(await profileOf(bob.id)).toMatchObject({ followers_count: 1, following_count: 0 });
    expect(await profileOf(ann.id)).toMatchObject({ followers_count: 0, following_count: 1 });
  });

  it('an unfollow moves them back once; a second one, or one of nobody followed, changes nothing', async () => {
    expect(await once(ann, 'unfollow', { userId: bob.id })).toMatchObject({ status: 'applied' });
    expect(await once(ann, 'unfollow', { userId: bob.id })).toMatchObject({ status: 'applied' });
    expect(await once(ann, 'unfollow', { userId: randomUUID() })).toMatchObject({ status: 'applied' });
    expect(await once(ann, 'unfollow', { userId: ann.id })).toMatchObject({ status: 'applied' });
    expect(await followRows(bob.id)).toBe(0);
    expect(await profileOf(bob.id)).toMatchObject({ followers_count: 0 });
    expect(await profileOf(ann.id)).toMatchObject({ following_count: 0 });
  });

  it('follow, unfollow, follow in one push: one row, counts 1', async () => {
    const m = (id: number, name: string) => ({ id, name, args: { userId: bob.id } });
    expect((await push(ann, [m(1, 'follow'), m(2, 'unfollow'), m(3, 'follow')])).map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    expect(await followRows(bob.id)).toBe(1);
    expect(await profileOf(bob.id)).toMatchObject({ followers_count: 1 });
    expect(await profileOf(ann.id)).toMatchObject({ following_count: 1 });
    await once(ann, 'unfollow', { userId: bob.id });
  });

  it('refuses a 5,001st followed member with limit; following one already followed stays a no-op', async () => {
    const [carl, dina, eve] = await members(3, 'Limit');
    expect(await once(carl!, 'follow', { userId: dina!.id })).toMatchObject({ status: 'applied' });
    // As if Carl followed 5,000 people (the count is what the rule reads; its rows need no 5,000 members here).
    await t.deps.db.updateTable('profiles').set({ following_count: 5000 }).where('id', '=', carl!.id).execute();
    expect(await once(carl!, 'follow', { userId: eve!.id })).toMatchObject({
      status: 'rejected',
      error: { code: 'limit', message: 'You can follow up to 5,000 people.' },
    });
    expect(await followRows(eve!.id)).toBe(0);
    expect(await once(carl!, 'follow', { userId: dina!.id })).toMatchObject({ status: 'applied' });
    expect(await profileOf(carl!.id)).toMatchObject({ following_count: 5000 });
    // One unfollow makes room again.
    expect(await once(carl!, 'unfollow', { userId: dina!.id })).toMatchObject({ status: 'applied' });
    expect(await once(carl!, 'follow', { userId: eve!.id })).toMatchObject({ status: 'applied' });
    expect(await profileOf(carl!.id)).toMatchObject({ following_count: 5000 });
  });

  it('50 members following one member at once: 50 rows and followers_count 50, and still 50 after every follow is sent again', async () => {
    const star = await createUser(t.deps, { name: 'Star' });
    const fans = await members(50, 'Fan');
    const clientIds = fans.map(() => randomUUID());
    const follow = [{ id: 1, name: 'follow', args: { userId: star.id } }];
    const first = await Promise.all(fans.map((f, i) => push(f, follow, clientIds[i])));
    expect(first.flat().map((r) => r.status)).toEqual(Array(50).fill('applied'));
    expect(await followRows(star.id)).toBe(50);
    expect(await profileOf(star.id)).toMatchObject({ followers_count: 50 });

    // The same pushes again (a lost answer), and the same follows from each fan's second device, all at once.
    const again = await Promise.all([...fans.map((f, i) => push(f, follow, clientIds[i])), ...fans.map((f) => push(f, follow))]);
    expect(again.flat().map((r) => r.status)).toEqual([...Array(50).fill('duplicate'), ...Array(50).fill('applied')]);
    expect(await followRows(star.id)).toBe(50);
    expect(await profileOf(star.id)).toMatchObject({ followers_count: 50, following_count: 0 });
    const counts = await t.deps.db
      .selectFrom('profiles')
      .select('following_count')
      .where(
        'id',
        'in',
        fans.map((f) => f.id),
      )
      .execute();
    expect(counts.map((c) => Number(c.following_count))).toEqual(Array(50).fill(1));

    // And all of them unfollowing at once.
    const gone = await Promise.all(fans.map((f) => once(f, 'unfollow', { userId: star.id })));
    expect(gone.map((r) => r.status)).toEqual(Array(50).fill('applied'));
    expect(await followRows(star.id)).toBe(0);
    expect(await profileOf(star.id)).toMatchObject({ followers_count: 0 });
  });

  it('pairs following each other at the same moment: every follow lands, every count exact', async () => {
    const people = await members(20, 'Pair');
    const pairs = Array.from({ length: 10 }, (_, i) => [people[2 * i]!, people[2 * i + 1]!] as const);
    const results = await Promise.all(pairs.flatMap(([a, b]) => [once(a, 'follow', { userId: b.id }), once(b, 'follow', { userId: a.id })]));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill('applied'));
    for (const p of people) expect(await profileOf(p.id)).toMatchObject({ followers_count: 1, following_count: 1 });
  });
});
