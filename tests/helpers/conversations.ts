import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from './test-app';
import { createUser, type TestUser } from './users';
import { insertVideo } from './videos';
import { listen } from '../integration/sync-harness';

// Issue 29's mutations (replies, deletions, comment likes, pins) pushed over real HTTP on loopback,
// and the rows they leave, for the tests/integration/conversations-*.test.ts files on both engines.

export type PushResult = { id: number; status: 'applied' | 'duplicate' | 'rejected'; error?: { code: string; message: string } };
export type Mutation = { id: number; name: string; args: Record<string, unknown> };

export interface Conversations {
  t: TestApp;
  /** POST /api/sync/push over loopback; any status but 200 fails the test (a 500 is a bug). */
  push(user: TestUser, mutations: Mutation[], clientId?: string): Promise<PushResult[]>;
  /** One mutation from a fresh device: its result. */
  once(user: TestUser, name: string, args: Record<string, unknown>): Promise<PushResult>;
  /**
   * One mutation sent three times, each answered: by a device (applied), by the same device again
   * (duplicate), then by another device of the member (applied: taken, with no second effect).
   */
  replayed(user: TestUser, name: string, args: Record<string, unknown>): Promise<void>;
  /** POST /api/sync/pull over loopback: the answer's JSON. */
  pull(user: TestUser, body: Record<string, unknown>): Promise<any>;
  /** A comment (a reply when parentId is given) that must be applied: its id. */
  say(user: TestUser, videoId: string, content: string, parentId?: string): Promise<string>;
  member(name: string): Promise<TestUser>;
  members(n: number, name: string): Promise<TestUser[]>;
  video(owner: TestUser): Promise<string>;
  comment(id: string): Promise<CommentState | undefined>;
  /** The video's comments_count and pinned comment, and its comment rows in the order written. */
  videoState(videoId: string): Promise<VideoState>;
  close(): Promise<void>;
}

export interface CommentState {
  id: string;
  user_id: string;
  content: string;
  parent_id: string | null;
  reply_to_user_id: string | null;
  reply_count: number;
  likes_count: number;
  deleted: number;
  pinned: number;
}

export interface VideoState {
  comments_count: number;
  pinned_comment_id: string | null;
  comments: CommentState[];
}

const COMMENT_COLUMNS = ['id', 'user_id', 'content', 'parent_id', 'reply_to_user_id', 'reply_count', 'likes_count', 'deleted', 'pinned'] as const;

/** Counters come back as strings from some PostgreSQL drivers' bigints: compared as numbers. */
const asState = (r: Record<(typeof COMMENT_COLUMNS)[number], unknown>): CommentState =>
  ({ ...r, reply_count: Number(r.reply_count), likes_count: Number(r.likes_count), deleted: Number(r.deleted), pinned: Number(r.pinned) }) as CommentState;

/** The app on this project's engine served on a loopback port, with many connections and no push rate limit. */
export async function startConversations(): Promise<Conversations> {
  const t = await createTestApp({ MEDIA_WORKER: 'off', DATABASE_POOL_SIZE: '24', PUSH_RATE_BURST: '100000' });
  const http = await listen(t.app.fetch);

  const post = async (path: string, body: unknown, token: string) => {
    const res = await fetch(`${http.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text);
  };
  const push = async (user: TestUser, mutations: Mutation[], clientId = randomUUID()) =>
    (await post('/api/sync/push', { client_id: clientId, mutations }, user.token)).results as PushResult[];
  const once = async (user: TestUser, name: string, args: Record<string, unknown>) => (await push(user, [{ id: 1, name, args }]))[0]!;
  const member = (name: string) => createUser(t.deps, { name });

  const comment = async (id: string) => {
    const row = await t.deps.db.selectFrom('comments').select(COMMENT_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && asState(row);
  };

  return {
    t,
    push,
    once,
    replayed: async (user, name, args) => {
      const clientId = randomUUID();
      const mutation = [{ id: 1, name, args }];
      expect(await push(user, mutation, clientId)).toEqual([{ id: 1, status: 'applied' }]);
      expect(await push(user, mutation, clientId)).toEqual([{ id: 1, status: 'duplicate' }]);
      expect(await push(user, mutation)).toEqual([{ id: 1, status: 'applied' }]);
    },
    pull: (user, body) => post('/api/sync/pull', { cursor: null, ...body }, user.token),
    say: async (user, videoId, content, parentId) => {
      const commentId = randomUUID();
      // Comments a millisecond apart, so "oldest first" and "newest first" have one answer.
      t.advance(1);
      expect(await once(user, 'addComment', { commentId, videoId, content, ...(parentId ? { parentId } : {}) })).toMatchObject({ status: 'applied' });
      return commentId;
    },
    member,
    members: (n, name) => Promise.all(Array.from({ length: n }, (_, i) => member(`${name} ${i}`))),
    video: (owner) => insertVideo(t.deps, owner.id),
    comment,
    videoState: async (videoId) => {
      const video = await t.deps.db.selectFrom('videos').select(['comments_count', 'pinned_comment_id']).where('id', '=', videoId).executeTakeFirstOrThrow();
      const rows = await t.deps.db.selectFrom('comments').select(COMMENT_COLUMNS).where('video_id', '=', videoId).orderBy('created_at').orderBy('id').execute();
      return { comments_count: Number(video.comments_count), pinned_comment_id: video.pinned_comment_id, comments: rows.map(asState) };
    },
    close: async () => {
      await http.close();
      await t.close();
    },
  };
}

/** comments_count is exact: it counts the rows that are not tombstones. */
export function expectExactCount(state: VideoState): void {
  expect(state.comments_count).toBe(state.comments.filter((c) => c.deleted === 0).length);
}

/** The usual people of a conversation test: the video's owner and two members. */
export interface Cast {
  c: Conversations;
  owner: TestUser;
  ann: TestUser;
  bob: TestUser;
}

export async function startCast(): Promise<Cast> {
  const c = await startConversations();
  const [owner, ann, bob] = await Promise.all([c.member('Owner'), c.member('Ann'), c.member('Bob')]);
  return { c, owner, ann, bob };
}

/**
 * Runs `rounds` races one after the other; each times its concurrent part with `timed`. Two pushes
 * that deadlock wait PostgreSQL's deadlock_timeout (1 s) before one is undone and run again, so a
 * round of 1 s or more is counted as one; a busy machine may stall `allowedSlow` rounds.
 */
export async function raceRounds(rounds: number, round: (i: number, timed: <T>(race: () => Promise<T>) => Promise<T>) => Promise<void>, allowedSlow = 1) {
  const slow: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await round(i, async (race) => {
      const started = Date.now();
      const answers = await race();
      if (Date.now() - started >= 1000) slow.push(i);
      return answers;
    });
  }
  expect(slow.length, `rounds of 1 s or more: ${slow.join(', ')}`).toBeLessThanOrEqual(allowedSlow);
}
