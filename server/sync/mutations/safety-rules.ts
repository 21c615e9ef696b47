import { MutationError } from '#sync/protocol/error-codes';
import { mentionedHandles } from '#sync/protocol/mentions';
import type { ServerMutationContext } from './context';

// The rules of block and mute that only the server can apply (docs/decisions/0024-safety.md): the
// device holds neither the other members' accounts nor the blocks made against its own member.

export const BLOCKED_MESSAGE = "You can't interact with this member.";

/**
 * The pusher's edges to others, read once per push by one statement (PushBatch.safety): a feed's
 * push of a hundred likes pays one query for the block rule, not one per like. Dropped by every
 * block and unblock (and read again when next needed), and kept per member: on SQLite one batch
 * serves a group of pushes of several members.
 */
export interface SafetyMemo {
  userId: string;
  /** Members the pusher blocked. */
  blockedByMe: ReadonlySet<string>;
  /** Members who blocked the pusher. */
  blockedMe: ReadonlySet<string>;
  /** Members who muted the pusher: they are not told of the pusher's actions. */
  mutedMe: ReadonlySet<string>;
}

/** The pusher's memo, read by one statement on the blocks key, blocks_blocked and mutes_muted (a fixed text: the push's statements). */
export async function safetyOf({ user, batch }: ServerMutationContext): Promise<SafetyMemo> {
  if (batch.safety?.userId === user.id) return batch.safety;
  const rows = await batch.statements.safetyEdges(user.id);
  const of = (edge: string) => new Set(rows.filter((r) => r.edge === edge).map((r) => r.other));
  const memo = { userId: user.id, blockedByMe: of('out'), blockedMe: of('in'), mutedMe: of('muted') };
  batch.safety = memo;
  return memo;
}

/** After a block or an unblock: the next rule reads the edges again. */
export function forgetSafety(ctx: ServerMutationContext): void {
  ctx.batch.safety = undefined;
}

/**
 * Refuses with `blocked` when the pusher and any of the members `whom` names blocked each other,
 * either way. `whom` runs only when the pusher has a block at all (most have none: then no read).
 */
export async function refuseIfBlocked(ctx: ServerMutationContext, whom: () => Promise<ReadonlyArray<string | null | undefined>>): Promise<void> {
  const memo = await safetyOf(ctx);
  if (!memo.blockedByMe.size && !memo.blockedMe.size) return;
  for (const id of await whom()) {
    if (id && id !== ctx.user.id && (memo.blockedByMe.has(id) || memo.blockedMe.has(id))) throw new MutationError('blocked', BLOCKED_MESSAGE);
  }
}

/** Whether `memberId` should not be told of the pusher's action: they muted or blocked the pusher, or the pusher blocked them. */
export async function quietToward(ctx: ServerMutationContext, memberId: string): Promise<boolean> {
  const memo = await safetyOf(ctx);
  return memo.mutedMe.has(memberId) || memo.blockedMe.has(memberId) || memo.blockedByMe.has(memberId);
}

/** The owner of a video the push names (the push's hot statement: cached per push on PostgreSQL). */
export const ownerOfVideo = async (ctx: ServerMutationContext, videoId: string) => [(await ctx.batch.statements.video(videoId))?.user_id];

/** A comment's author, or nobody when it is gone (the shared logic answers that). */
export async function authorOfComment(ctx: ServerMutationContext, commentId: string): Promise<string | undefined> {
  const row = await ctx.trx.selectFrom('comments').select('user_id').where('id', '=', commentId).executeTakeFirst();
  return row?.user_id;
}

/** The members a text's @handles name (profiles_handle). */
async function mentionedMembers(ctx: ServerMutationContext, text: string): Promise<string[]> {
  const handles = mentionedHandles(text);
  if (!handles.length) return [];
  return (await ctx.trx.selectFrom('profiles').select('id').where('handle', 'in', handles).execute()).map((r) => r.id);
}

/**
 * A new comment's counterparts: the video's owner, for a reply the author replied to, and the members
 * it mentions. A comment id already taken is the shared logic's to answer (a replay is no refusal).
 */
export async function commentCounterparts(
  ctx: ServerMutationContext,
  a: { commentId: string; videoId: string; content: string; parentId?: string | undefined },
) {
  if (await authorOfComment(ctx, a.commentId)) return [];
  const replyTo = a.parentId ? await authorOfComment(ctx, a.parentId) : undefined;
  return [...(await ownerOfVideo(ctx, a.videoId)), replyTo, ...(await mentionedMembers(ctx, a.content))];
}

/**
 * Before a block or a mute's shared logic: the other member must be an active member, and an admin
 * cannot be blocked (a mute of one is allowed: it only quiets the muter's own reads). An edge that already exists is never refused: the shared logic answers it as a no-op. Oneself is the
 * shared logic's refusal, in its words.
 */
export async function checkBlockTarget(ctx: ServerMutationContext, userId: string, edge: 'blocks' | 'mutes'): Promise<void> {
  if (userId === ctx.user.id) return;
  const target = await ctx.trx.selectFrom('profiles').select(['is_active', 'account_status', 'is_admin']).where('id', '=', userId).executeTakeFirst();
  const active = target !== undefined && Number(target.is_active) === 1 && target.account_status === 'active';
  const admin = edge === 'blocks' && Number(target?.is_admin) === 1;
  if (active && !admin) return;
  if (await edgeExists(ctx, userId, edge)) return;
  if (!active) throw new MutationError('not_found', 'This member no longer exists.');
  throw new MutationError('invalid', "You can't block an admin.");
}

async function edgeExists({ trx, user }: ServerMutationContext, userId: string, edge: 'blocks' | 'mutes'): Promise<boolean> {
  const row =
    edge === 'blocks'
      ? await trx.selectFrom('blocks').select('blocked_id').where('blocker_id', '=', user.id).where('blocked_id', '=', userId).executeTakeFirst()
      : await trx.selectFrom('mutes').select('muted_id').where('muter_id', '=', user.id).where('muted_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
