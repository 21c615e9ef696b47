import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { seededRandom } from '../helpers/seeded-random';
import { createUser, type TestUser } from '../helpers/users';
import { engineFor, insertVideo, listen, Network, newDevice, videoTruth, type Device, type TestEngine } from './sync-harness';

// Random member actions on two devices, with the network cut, flaky, or losing responses at
// random, reloads in between: once the network is back and everything is flushed, both devices
// agree with the server, every counter equals its rows, and every action landed exactly once.

let t: TestApp;
let http: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app.fetch);
});
afterAll(async () => {
  await http.close();
  await t.close();
});

type Action =
  | { kind: 'like' | 'comment' | 'share' | 'view' | 'delete'; user: 0 | 1; video: number; ms: number }
  | { kind: 'rename'; user: 0 | 1; name: string }
  | { kind: 'net'; user: 0 | 1; mode: 'offline' | 'online' | 'flaky' | 'drop' }
  | { kind: 'sync' | 'reload'; user: 0 | 1 };

const user = fc.constantFrom<0 | 1>(0, 1);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constantFrom('like', 'comment', 'share', 'view'), user, video: fc.nat(3), ms: fc.integer({ min: 0, max: 6000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete'), user, video: fc.nat(3), ms: fc.constant(0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename'), user, name: fc.constantFrom('Ann', 'Ben', 'Cy', 'Di') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('net'), user, mode: fc.constantFrom('offline', 'online', 'flaky', 'drop') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('sync', 'reload'), user }) },
) as fc.Arbitrary<Action>;

interface Side {
  user: TestUser;
  device: Device;
  db: Device['db'];
  net: Network;
  te: TestEngine;
  rejected: TestEngine['rejections'];
}

/** What the actions made, to check the server against afterwards. */
interface Made {
  videos: string[];
  comments: Map<string, string>;
  shares: Map<string, string>;
  lastName: Array<string | null>;
}

async function reload(s: Side): Promise<void> {
  await s.te.engine.stop();
  s.db.close();
  s.db = s.device.reopen();
  const te = engineFor(s.db, s.user, http.url, s.net);
  te.rejections.push(...s.rejected);
  s.te = te;
  s.rejected = te.rejections;
  await te.engine.start();
}

async function apply(a: Action, s: Side, made: Made): Promise<unknown> {
  const e = s.te.engine;
  const video = 'video' in a ? made.videos[a.video]! : '';
  switch (a.kind) {
    case 'like':
      // A tap on the card: the opposite of what the device shows.
      return e.mutate((await s.db.videos.get(video))?.liked_by_me ? 'unlike' : 'like', { videoId: video });
    case 'comment': {
      const id = randomUUID();
      made.comments.set(id, video);
      return e.mutate('addComment', { commentId: id, videoId: video, content: `c ${id.slice(0, 4)}` });
    }
    case 'share': {
      const id = randomUUID();
      made.shares.set(id, video);
      return e.mutate('recordShare', { shareId: id, videoId: video });
    }
    case 'view':
      return e.mutate('recordView', { videoId: video, watchedMs: a.ms });
    case 'delete':
      return e.mutate('deleteVideo', { videoId: video });
    case 'rename':
      made.lastName[a.user] = a.name;
      return e.mutate('updateProfileName', { name: a.name });
    case 'net':
      s.net.offline = a.mode === 'offline';
      s.net.failRate = a.mode === 'flaky' ? 0.3 : 0;
      s.net.dropPushResponses = a.mode === 'drop' ? 1 : 0;
      return;
    case 'sync':
      return e.sync();
    case 'reload':
      return reload(s);
  }
}

/** The network comes back for good; flush until both queues are empty, then pull once more. */
async function flush(sides: Side[]): Promise<void> {
  for (const s of sides) {
    s.net.offline = false;
    s.net.failRate = 0;
    s.net.dropPushResponses = 0;
  }
  for (let i = 0; i < 30; i++) {
    const ok = await Promise.all(sides.map((s) => s.te.engine.sync()));
    const left = await Promise.all(sides.map((s) => s.db.outbox.count()));
    if (ok.every(Boolean) && left.every((n) => n === 0)) break;
  }
  for (const s of sides) await s.te.engine.sync();
  for (const s of sides) expect(await s.db.outbox.count()).toBe(0);
}

async function rowIds(table: 'comments' | 'shares', videoId: string): Promise<string[]> {
  return (await t.deps.db.selectFrom(table).select('id').where('video_id', '=', videoId).execute()).map((r) => r.id).sort();
}

async function checkVideo(videoId: string, sides: Side[], made: Made, rejectedIds: Set<string | undefined>): Promise<void> {
  const truth = await videoTruth(t.deps, videoId);
  // Counters always equal their rows.
  expect(truth.likes_count).toBe(truth.likes);
  expect(truth.comments_count).toBe(truth.comments);
  expect(truth.shares_count).toBe(truth.sharers);
  expect(truth.views_count).toBe(truth.views);
  if (!truth.exists) {
    for (const s of sides) expect(await s.db.videos.get(videoId)).toBeUndefined();
    return;
  }
  // Exactly once: every comment and share made on a live video is there once, none is missing.
  const wanted = (m: Map<string, string>) =>
    [...m]
      .filter(([id, v]) => v === videoId && !rejectedIds.has(id))
      .map(([id]) => id)
      .sort();
  const gotComments = await rowIds('comments', videoId);
  expect(gotComments).toEqual(wanted(made.comments));
  expect(await rowIds('shares', videoId)).toEqual(wanted(made.shares));
  // Each device shows exactly what the server says, for its own user.
  for (const s of sides) {
    const page = await call(t.app, 'GET', '/api/videos?limit=50', undefined, s.user.token);
    const server = page.json.items.find((v: any) => v.id === videoId);
    const { created_ms: _ms, ...local } = (await s.db.videos.get(videoId))!;
    expect(local).toEqual(server);
    const localComments = (await s.db.comments.where('video_id').equals(videoId).toArray()).map((c) => c.id);
    for (const id of localComments) expect(gotComments).toContain(id);
  }
}

async function check(sides: Side[], made: Made): Promise<void> {
  const rejectedIds = new Set(
    sides.flatMap((s) => s.rejected.map((r) => (r.args as { commentId?: string; shareId?: string }).commentId ?? (r.args as { shareId?: string }).shareId)),
  );
  // The only refusals: acting on a video deleted meanwhile, or deleting someone else's video.
  for (const s of sides) for (const r of s.rejected) expect(r.name === 'deleteVideo' ? 'forbidden' : 'not_found').toBe(r.error.code);
  for (const videoId of made.videos) await checkVideo(videoId, sides, made, rejectedIds);
  for (const [i, s] of sides.entries()) {
    const name = (await t.deps.db.selectFrom('profiles').select('name').where('id', '=', s.user.id).executeTakeFirstOrThrow()).name;
    expect(name).toBe(made.lastName[i] ?? `P${i}`);
    expect((await s.db.profile.get(s.user.id))?.name).toBe(name);
  }
}

async function run(actions: Action[], seed: number): Promise<void> {
  const users = [await createUser(t.deps, { name: 'P0' }), await createUser(t.deps, { name: 'P1' })];
  // Videos 0, 1 belong to user 0; 2, 3 to user 1.
  const videos = [
    await insertVideo(t.deps, users[0]!.id),
    await insertVideo(t.deps, users[0]!.id),
    await insertVideo(t.deps, users[1]!.id),
    await insertVideo(t.deps, users[1]!.id, { durationMs: 1500 }),
  ];
  const rand = seededRandom(seed);
  const sides: Side[] = users.map((u) => {
    const device = newDevice();
    const net = new Network();
    net.rand = rand;
    const te = engineFor(device.db, u, http.url, net);
    return { user: u, device, db: device.db, net, te, rejected: te.rejections };
  });
  const made: Made = { videos, comments: new Map(), shares: new Map(), lastName: [null, null] };
  try {
    await Promise.all(sides.map((s) => s.te.engine.start()));
    await Promise.all(sides.map((s) => s.te.engine.sync()));
    for (const a of actions) await apply(a, sides[a.user]!, made);
    await flush(sides);
    await check(sides, made);
  } finally {
    for (const s of sides) await s.te.engine.stop();
  }
}

describe('sync property', () => {
  it('random actions with random network faults: devices and server agree, exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), fc.integer(), async (actions, seed) => {
        await run(actions, seed);
      }),
      { numRuns: 15 },
    );
  }, 240_000);
});
