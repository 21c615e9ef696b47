import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import type { MutationTx } from './mutation-tx';
import { requireShownVideo, requireVideo } from './require-video';

// like and unlike: the two wire names of one switch, defined together.

const aboutAVideo = {
  args: (k: ArgKit) => k.z.strictObject({ videoId: k.id }),
  refusedTitle: 'Like not saved',
  pendingOnCard: true,
  sample: ({ videoId }: SampleFixture) => ({ videoId }),
} as const;

/**
 * The video (it must exist; to be liked, it must be shown to the member) and the acting member's
 * like of it. Taking a like back is always allowed: it only ever removes a point.
 */
async function likeOf(tx: MutationTx, videoId: string, require: typeof requireVideo) {
  const video = await require(tx, videoId);
  const key = { video_id: videoId, user_id: tx.userId };
  return { video, key, existing: await tx.likes.get(key) };
}

export const like = defineMutation({
  name: 'like',
  ...aboutAVideo,
  run: async (tx, { videoId }) => {
    const { video, key, existing } = await likeOf(tx, videoId, requireShownVideo);
    if (existing) return null;
    // The counter follows the row that really changed, not the read above (two unlikes at once).
    if ((await tx.likes.insert(key)) === false) return null;
    await tx.videos.increment({ id: videoId }, 'likes_count', 1);
    return { video };
  },
});

export const unlike = defineMutation({
  name: 'unlike',
  ...aboutAVideo,
  run: async (tx, { videoId }) => {
    const { video, key, existing } = await likeOf(tx, videoId, requireVideo);
    if (!existing) return null;
    if ((await tx.likes.delete(key)) === false) return null;
    await tx.videos.increment({ id: videoId }, 'likes_count', -1);
    return { video, likedAt: existing.created_at };
  },
});
