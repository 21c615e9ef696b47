import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';
import type { MutationTx } from './mutation-tx';
import { requireShownVideo } from './require-video';

/** A share id already used: this member's same share is a replay (no effect), anything else a conflict. */
function replayOrConflict(tx: MutationTx, existing: { video_id: string; user_id: string } | undefined, videoId: string): null {
  if (existing?.user_id === tx.userId && existing.video_id === videoId) return null;
  throw new MutationError('conflict', 'That share id is already taken.');
}

export const recordShare = defineMutation({
  name: 'recordShare',
  args: (k) => k.z.strictObject({ shareId: k.id, videoId: k.id }),
  refusedTitle: 'Share not saved',
  pendingOnCard: true,
  sample: ({ videoId, id }) => ({ shareId: id('share'), videoId }),
  run: async (tx, { shareId, videoId }) => {
    const existing = await tx.shares.get({ id: shareId });
    if (existing) return replayOrConflict(tx, existing, videoId);
    const video = await requireShownVideo(tx, videoId);
    const key = { video_id: videoId, user_id: tx.userId };
    // The count counts members: every share is stored (its id makes replays harmless), only a
    // member's first moves it. "First" is read, then written: on the server a member's pushes run
    // one at a time (the member lock on PostgreSQL, the single writer on SQLite), so no other share
    // of this member lands in between.
    const sharedBefore = await tx.shares.exists(key);
    if ((await tx.shares.insert({ id: shareId, ...key })) === false) return replayOrConflict(tx, await tx.shares.get({ id: shareId }), videoId);
    if (!sharedBefore) await tx.videos.increment({ id: videoId }, 'shares_count', 1);
    return { video };
  },
});
