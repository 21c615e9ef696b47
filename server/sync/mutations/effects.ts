import { runMutation, type AnyMutation, type MutationArgs, type MutationName, type MutationOutcome } from '#sync/mutations/catalogue';
import { recordAudit } from '#server/admin/audit';
import { commentAdded, commentRemoved, startedPair } from '#server/rewards/comment-pairs';
import { applyScoreEvent } from '#server/rewards/score-events';
import { notifyLike } from '#server/notifications/create';
import { deleteNotificationsOfComment, notifyCommentAdded } from '#server/notifications/comments';
import { notifyFollow, withdrawFollowNotification } from '#server/notifications/follow';
import { checkFollow, handleRaceLost } from './people-rules';
import { authorOfComment, checkBlockTarget, commentCounterparts, forgetSafety, ownerOfVideo, quietToward, refuseIfBlocked } from './safety-rules';
import { recordViewInTx } from './record-view';
import { recordReport } from '#server/safety/record-report';
import { fileVideo } from '#server/discovery/video-hashtags';
import { notifyVideoMentions } from '#server/notifications/mentions';
import type { ServerMutationContext } from './context';
import type { ServerMutationTx } from './server-tables';

type Effect<N extends MutationName> = (ctx: ServerMutationContext, args: MutationArgs<N>, outcome: NonNullable<MutationOutcome<N>>) => Promise<unknown>;
type Check<N extends MutationName> = (ctx: ServerMutationContext, args: MutationArgs<N>) => Promise<void>;

/** Refusals only the server can make, before the shared logic: they need rows the device does not hold. */
const mutationChecks: { [N in MutationName]?: Check<N> } = {
  follow: async (ctx, { userId }) => {
    await refuseIfBlocked(ctx, async () => [userId]);
    await checkFollow(ctx, userId);
  },
  // New actions between two members when either blocked the other: `blocked` (safety-rules.ts).
  like: (ctx, { videoId }) => refuseIfBlocked(ctx, () => ownerOfVideo(ctx, videoId)),
  addComment: (ctx, args) => refuseIfBlocked(ctx, () => commentCounterparts(ctx, args)),
  likeComment: (ctx, { commentId }) => refuseIfBlocked(ctx, async () => [await authorOfComment(ctx, commentId)]),
  recordShare: (ctx, { videoId }) => refuseIfBlocked(ctx, () => ownerOfVideo(ctx, videoId)),
  block: (ctx, { userId }) => checkBlockTarget(ctx, userId, 'blocks'),
  mute: (ctx, { userId }) => checkBlockTarget(ctx, userId, 'mutes'),
};

/** A database error that is the caller's refusal, not a fault (a race the shared logic's check cannot see). */
const refusalOf: { [N in MutationName]?: (err: unknown) => unknown } = {
  setHandle: handleRaceLost,
};

/**
 * What only the server does after a mutation's shared logic changed something (a replay returns
 * null and has no effect), in the same transaction: leaderboard points (docs/decisions/0009-scoring-rules.md),
 * the view rule, the audit of an admin's deletion, the notifications of a like, a comment, a reply,
 * a mention or a comment's like and their removal with a deleted comment, the followee's of a follow
 * (docs/notifications.md; none to a member who muted or blocked the actor), the snapshots a block or
 * a mute makes the members concerned load. A mutation without server-only effects has no entry.
 */
export const mutationEffects: { [N in MutationName]?: Effect<N> } = {
  like: async (ctx, _args, { video }) => {
    const { trx, user, now, batch, changes } = ctx;
    await applyScoreEvent(trx, { kind: 'like', actorId: user.id, creatorId: video.user_id, delta: 1, occurredAt: now, at: now }, batch.scores);
    if (await quietToward(ctx, video.user_id)) return;
    await notifyLike(trx, changes, { videoId: video.id, ownerId: video.user_id, likerId: user.id, likerName: user.name }, batch.likeNotes);
  },
  unlike: ({ trx, user, now, batch }, _args, { video, likedAt }) =>
    applyScoreEvent(trx, { kind: 'like', actorId: user.id, creatorId: video.user_id, delta: -1, occurredAt: likedAt, at: now }, batch.scores),
  // Every comment counts in comments_count; only a member's first top-level one on the video in the
  // period scores (replies earn nothing: docs/rewards.md). Each member concerned is told once.
  addComment: async ({ trx, user, now, batch, changes }, { content }, { video, commentId, parentId, replyToUserId }) => {
    if (!parentId && (await startedPair(trx, { userId: user.id, videoId: video.id, commentId }, batch.scores))) {
      await commentAdded(trx, { userId: user.id, creatorId: video.user_id, createdAt: now }, batch.scores);
    }
    const c = { videoId: video.id, ownerId: video.user_id, commentId, authorId: user.id, authorName: user.name, content, replyToUserId };
    await notifyCommentAdded(trx, changes, c);
  },
  // Its words are kept nowhere: the notifications quoting it go. A top-level comment's pair is
  // removed or moved as when any comment went (comment-pairs.ts); an admin's deletion of another's is audited.
  deleteComment: async ({ trx, user, now, batch, changes }, _args, { comment, video, role }) => {
    await deleteNotificationsOfComment(trx, changes, comment.id);
    if (!comment.parent_id && video) {
      const pair = { userId: comment.user_id, videoId: video.id, creatorId: video.user_id, createdAt: Number(comment.created_at) };
      await commentRemoved(trx, pair, batch.scores);
    }
    if (role !== 'admin') return;
    await recordAudit(
      trx,
      { actorId: user.id, action: 'comment.delete', target: comment.id, details: { author_id: comment.user_id, video_id: comment.video_id } },
      now,
    );
  },
  // Earns no points; its author hears of it (unless they muted the liker), batched like a video's likes.
  likeComment: async (ctx, _args, { comment }) => {
    const { trx, user, batch, changes } = ctx;
    if (await quietToward(ctx, comment.user_id)) return;
    await notifyLike(
      trx,
      changes,
      { videoId: comment.video_id, ownerId: comment.user_id, likerId: user.id, likerName: user.name, comment: { id: comment.id, content: comment.content } },
      batch.likeNotes,
    );
  },
  // Another member's video goes only by an admin's hand: audited like DELETE /api/admin/videos/:id.
  deleteVideo: async ({ trx, user, now }, _args, { video }) => {
    if (video.user_id === user.id) return;
    await recordAudit(trx, { actorId: user.id, action: 'video.delete', target: video.id, details: { owner_id: video.user_id } }, now);
  },
  // Its tags follow the new texts (a video still processing is filed once ready: run-job.ts), and a
  // member newly mentioned in a shown video is told, once ever per video (the notification's id says so).
  editVideo: async ({ trx, now, changes }, _args, { video, title, description }) => {
    await fileVideo(trx, video.id, now);
    if (video.media_status !== 'ready') return;
    await notifyVideoMentions(trx, changes, { videoId: video.id, ownerId: video.user_id, title, description });
  },
  recordView: (ctx, { watchedMs }, { video }) => recordViewInTx(ctx, video, watchedMs),
  // Everything of a report is the server's: the checks, the evidence, the queue (server/safety/record-report.ts).
  report: ({ trx, user, now }, args) => recordReport(trx, user.id, args, now),
  // Both members' counts changed: each one's own devices pull their own profile.
  follow: async (ctx, _args, { followeeId }) => {
    const { trx, user, changes } = ctx;
    changes.profile(followeeId).profile(user.id);
    if (await quietToward(ctx, followeeId)) return;
    await notifyFollow(trx, changes, { followerId: user.id, followerName: user.name, followeeId });
  },
  unfollow: async ({ trx, user, changes }, _args, { followeeId, followedAt }) => {
    changes.profile(followeeId).profile(user.id);
    await withdrawFollowNotification(trx, changes, { followerId: user.id, followeeId, followedAt });
  },
  // Both members' counts (the follows it took) and both members' devices load a snapshot read with
  // the block applied (docs/decisions/0024-safety.md). No points move: those earned stand.
  block: async (ctx, _args, { blockedId }) => {
    forgetSafety(ctx);
    ctx.changes.profile(blockedId).profile(ctx.user.id).resync(blockedId).resync(ctx.user.id);
  },
  unblock: async (ctx, _args, { blockedId }) => {
    forgetSafety(ctx);
    ctx.changes.resync(blockedId).resync(ctx.user.id);
  },
  // Only the muter's reads change.
  mute: async ({ changes, user }) => void changes.resync(user.id),
  unmute: async ({ changes, user }) => void changes.resync(user.id),
};

/**
 * A mutation on the server: its server-only checks, the shared logic over the authoritative tables
 * (`tx.ctx` is this mutation's), then its server-only effects.
 */
export async function runServerMutation(tx: ServerMutationTx, mutation: AnyMutation): Promise<void> {
  const check = mutationChecks[mutation.name] as Check<MutationName> | undefined;
  if (check) await check(tx.ctx, mutation.args as never);
  const refusal = refusalOf[mutation.name];
  const outcome = await runMutation(tx, mutation).catch((err: unknown) => {
    throw refusal ? refusal(err) : err;
  });
  const effect = mutationEffects[mutation.name] as Effect<MutationName> | undefined;
  if (effect && outcome) await effect(tx.ctx, mutation.args as never, outcome as never);
}
