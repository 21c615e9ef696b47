import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from './sync-harness';

// One push that likes a video (PostgreSQL then caches the video for the push: push-statements-postgres.ts)
// and pins two of its comments one after the other: the second pin must see the first and unpin it,
// on both engines. At most one pinned comment per video (docs/sync.md, "Mutations").

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MEDIA_WORKER: 'off' });
  owner = await createUser(t.deps, { name: 'Pinning Owner' });
});
afterAll(async () => {
  await t?.close();
});

it('a second pin in the same push unpins the first, with the video cached by a like', async () => {
  const videoId = await insertVideo(t.deps, owner.id);
  const [first, second] = [randomUUID(), randomUUID()];
  const mutations = [
    { id: 1, name: 'like', args: { videoId } },
    { id: 2, name: 'addComment', args: { commentId: first, videoId, content: 'one' } },
    { id: 3, name: 'addComment', args: { commentId: second, videoId, content: 'two' } },
    { id: 4, name: 'pinComment', args: { commentId: first } },
    { id: 5, name: 'pinComment', args: { commentId: second } },
  ];
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, owner.token);
  expect(res.status, res.text).toBe(200);
  expect(res.json.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
  const pinned = await t.deps.db.selectFrom('comments').select(['id', 'pinned']).where('video_id', '=', videoId).orderBy('content').execute();
  expect(pinned).toEqual([
    { id: first, pinned: 0 },
    { id: second, pinned: 1 },
  ]);
  const video = await t.deps.db.selectFrom('videos').select('pinned_comment_id').where('id', '=', videoId).executeTakeFirstOrThrow();
  expect(video.pinned_comment_id).toBe(second);
});
