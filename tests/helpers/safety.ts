import { expect } from 'vitest';
import { call } from './test-app';
import type { Conversations } from './conversations';
import type { TestUser } from './users';

// Issue 30's reads and admin calls over the app's HTTP API, for the tests/integration/safety-*.test.ts
// files on both engines: what a member is shown of a comment list, its follow counts, its notifications.

/** GET on the app as `user`; any status but 200 fails the test (a 500 is a bug). */
export async function getJson(c: Conversations, user: TestUser, path: string): Promise<any> {
  const res = await call(c.t.app, 'GET', path, undefined, user.token);
  expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
  return res.json;
}

const ids = (items: { id: string }[]) => items.map((x) => x.id).sort();

/** The ids of every comment GET /api/videos/{id}/comments shows `viewer` (all pages of the top-level list). */
export async function listedCommentIds(c: Conversations, viewer: TestUser, videoId: string): Promise<string[]> {
  const seen: { id: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await getJson(c, viewer, `/api/videos/${videoId}/comments?limit=200${query}`);
    seen.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return ids(seen);
}

/** The ids of the comments of `videoId` a fresh device of `viewer` pulls with the video's list open (a snapshot). */
export async function pulledCommentIds(c: Conversations, viewer: TestUser, videoId: string): Promise<string[]> {
  const answer = await c.pull(viewer, { open_videos: [videoId] });
  return ids(answer.comments.filter((x: { video_id: string }) => x.video_id === videoId));
}

export interface FollowCounts {
  followers_count: number;
  following_count: number;
}

/** A member's counters as their own pull reports them. */
export async function pulledCounts(c: Conversations, user: TestUser): Promise<FollowCounts> {
  const { profile } = await c.pull(user, {});
  return { followers_count: profile.followers_count, following_count: profile.following_count };
}

/** A member's counters as the follows rows say they must be. */
export async function countedFollows(c: Conversations, userId: string): Promise<FollowCounts> {
  const count = async (column: 'followee_id' | 'follower_id') =>
    Number(
      (
        await c.t.deps.db
          .selectFrom('follows')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { followers_count: await count('followee_id'), following_count: await count('follower_id') };
}

/** Whether `follower` follows `followee` (the row). */
export async function follows(c: Conversations, follower: TestUser, followee: TestUser): Promise<boolean> {
  const row = await c.t.deps.db
    .selectFrom('follows')
    .select('follower_id')
    .where('follower_id', '=', follower.id)
    .where('followee_id', '=', followee.id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The notifications a fresh device of `user` pulls. */
export async function pulledNotifications(
  c: Conversations,
  user: TestUser,
): Promise<{ kind: string; video_id: string | null; detail: string | null; actor_name: string | null }[]> {
  return (await c.pull(user, {})).notifications;
}
