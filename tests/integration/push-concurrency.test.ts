import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainedDays, recomputeAll, standingsOf } from '#server/rewards/recompute';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { runSeed, seededRandom } from '../helpers/seeded-random';

// Pushes that run at the same time (docs/sync.md, "Concurrency on PostgreSQL"): on SQLite they
// queue for the single writer; on PostgreSQL they run side by side on many connections, and the
// client's row lock, the member lock and conditional counters keep them exactly once and exact.

let t: TestApp;
let carol: TestUser;
let dave: TestUser;
const seed = runSeed('PUSH_CONCURRENCY_SEED', 'push concurrency');
const random = seededRandom(seed);

beforeAll(async () => {
  // Many connections on PostgreSQL, and no rate limit in the way of a storm.
  t = await createTestApp({ MEDIA_WORKER: 'off', DATABASE_POOL_SIZE: '24', PUSH_RATE_BURST: '100000' });
  carol = await createUser(t.deps, { name: 'Carol' });
  dave = await createUser(t.deps, { name: 'Dave' });
});
afterAll(async () => {
  await t?.close();
});

type Mutation = { id: number; name: string; args: Record<string, unknown> };
type PushAnswer = { status: number; json: { results: Array<{ id: number; status: string }>; last_mutation_id: number } };

const push = (user: TestUser, clientId: string, mutations: Mutation[]) =>
  call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token) as Promise<PushAnswer>;

const counters = (videoId: string) =>
  t.deps.db.selectFrom('videos').select(['likes_count', 'comments_count']).where('id', '=', videoId).executeTakeFirstOrThrow();
const rowCount = async (table: 'likes' | 'comments', videoId: string) =>
  Number(
    (
      await t.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('video_id', '=', videoId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('pushes at the same time', () => {
  it('50 pushes of one client id with overlapping mutation ids apply each mutation exactly once', async () => {
    const alice = await createUser(t.deps, { name: 'Alice' });
    const videoId = await insertVideo(t.deps, carol.id);
    const clientId = randomUUID();
    // Ids 1..60: a like, an unlike and a comment in turn (60 crosses PostgreSQL's 50 per transaction).
    const all: Mutation[] = Array.from({ length: 60 }, (_, i) => {
      const id = i + 1;
      if (id % 3 === 0) return { id, name: 'addComment', args: { commentId: `c${id}-${clientId}`, videoId, content: `comment ${id}` } };
      return { id, name: id % 3 === 1 ? 'like' : 'unlike', args: { videoId } };
    });
    // Every push starts at 1 (the client resends what it has not seen acknowledged) and ends anywhere.
    const ends = Array.from({ length: 50 }, (_, i) => (i === 0 ? 60 : 1 + Math.floor(random() * 60)));
    const answers = await Promise.all(ends.map((end) => push(alice, clientId, all.slice(0, end))));

    expect(answers.map((a) => a.status)).toEqual(ends.map(() => 200));
    for (const m of all) {
      const done = answers.flatMap((a) => a.json.results.filter((r) => r.id === m.id && r.status !== 'duplicate'));
      expect(done, `mutation ${m.id}`).toEqual([{ id: m.id, status: 'applied' }]);
    }
    const client = await t.deps.db.selectFrom('sync_clients').select('last_mutation_id').where('client_id', '=', clientId).executeTakeFirstOrThrow();
    expect(client.last_mutation_id).toBe(60);
    // In order, once each: the last of the like/unlike turns (59) was an unlike.
    expect(await rowCount('likes', videoId)).toBe(0);
    expect(await rowCount('comments', videoId)).toBe(20);
    expect(await counters(videoId)).toEqual({ likes_count: 0, comments_count: 20 });
  });

  it('like, unlike and comment storms from many members and devices keep counters and points equal to their rows', async () => {
    const videos = [await insertVideo(t.deps, carol.id), await insertVideo(t.deps, carol.id), await insertVideo(t.deps, dave.id)];
    const fans = await Promise.all(Array.from({ length: 10 }, (_, i) => createUser(t.deps, { name: `Fan ${i}` })));
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;

    /** A member's taps, sent by both of their devices at once (the same member on a phone and a laptop). */
    async function member(fan: TestUser): Promise<number[]> {
      const taps = Array.from({ length: 6 }, () =>
        Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ name: pick(['like', 'unlike', 'like', 'unlike', 'addComment']), videoId: pick(videos) })),
      );
      const device = async () => {
        const clientId = randomUUID();
        let next = 1;
        const statuses: number[] = [];
        for (const batch of taps) {
          const mutations = batch.map(({ name, videoId }) => ({
            id: next++,
            name,
            args: name === 'addComment' ? { commentId: randomUUID(), videoId, content: 'storm' } : { videoId },
          }));
          const answer = await push(fan, clientId, mutations);
          statuses.push(answer.status);
          if (answer.status === 200) expect(answer.json.results.every((r) => r.status === 'applied')).toBe(true);
        }
        return statuses;
      };
      return (await Promise.all([device(), device()])).flat();
    }
    const statuses = (await Promise.all(fans.map(member))).flat();
    expect(statuses.every((s) => s === 200)).toBe(true);

    for (const videoId of videos) {
      expect(await counters(videoId)).toEqual({ likes_count: await rowCount('likes', videoId), comments_count: await rowCount('comments', videoId) });
    }
    const { scores, days } = await recomputeAll(t.deps.db);
    const kept = (await t.deps.db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r }));
    expect(standingsOf(kept)).toEqual(standingsOf(scores));
    expect(await maintainedDays(t.deps.db)).toEqual(days);
    // The storm did score: the boards are not trivially equal.
    expect(standingsOf(scores).length).toBeGreaterThan(2);
  });
});
