// The mutators apart from their zod arg schemas (only types come from schemas.ts): the client
// replays queued mutations on its first screen, before zod is loaded. Args are validated before a
// mutation is queued (parseMutation in mutators.ts) and again by the server.
import { MutationError } from '../protocol/error-codes';
import type { AnyMutation, MutationArgs, MutationName } from './schemas';

/** What a mutator needs to know about a video. */
export interface VideoRef {
  id: string;
  user_id: string;
  duration_ms: number;
}

/**
 * The few reads and writes the mutators need (zbugs style). The client implements it over Dexie
 * (optimistic, local rows only), the server over Kysely (authoritative: it supplies the user id,
 * timestamps and counters, logs changes and moves leaderboard points inside each write).
 */
export interface MutatorTx {
  readonly location: 'client' | 'server';
  /** The acting user; on the server it comes from the access token, never from the args. */
  readonly userId: string;
  isAdmin(): Promise<boolean>;
  getVideo(videoId: string): Promise<VideoRef | undefined>;
  /** The acting user's like of a video. */
  getLike(videoId: string): Promise<{ created_at: number } | undefined>;
  addLike(video: VideoRef): Promise<void>;
  removeLike(video: VideoRef, like: { created_at: number }): Promise<void>;
  getComment(commentId: string): Promise<{ video_id: string; user_id: string } | undefined>;
  addComment(video: VideoRef, comment: { id: string; content: string }): Promise<void>;
  getShare(shareId: string): Promise<{ video_id: string; user_id: string } | undefined>;
  addShare(video: VideoRef, shareId: string): Promise<void>;
  /** Counts the view if it qualifies (the server decides; the client shows nothing for views). */
  recordView(video: VideoRef, watchedMs: number): Promise<void>;
  setProfileName(name: string): Promise<void>;
  deleteVideo(video: VideoRef): Promise<void>;
}

export type Mutator<N extends MutationName> = (tx: MutatorTx, args: MutationArgs<N>) => Promise<void>;

async function requireVideo(tx: MutatorTx, videoId: string): Promise<VideoRef> {
  const video = await tx.getVideo(videoId);
  if (!video) throw new MutationError('not_found', 'This video no longer exists.');
  return video;
}

/**
 * Each mutation defined once. Replays are harmless by design: liking a liked video, re-adding a
 * comment or share with the same id, or deleting a deleted video changes nothing.
 */
export const mutators: { [N in MutationName]: Mutator<N> } = {
  like: async (tx, { videoId }) => {
    const video = await requireVideo(tx, videoId);
    if (await tx.getLike(videoId)) return;
    await tx.addLike(video);
  },
  unlike: async (tx, { videoId }) => {
    const video = await requireVideo(tx, videoId);
    const like = await tx.getLike(videoId);
    if (!like) return;
    await tx.removeLike(video, like);
  },
  addComment: async (tx, { commentId, videoId, content }) => {
    const existing = await tx.getComment(commentId);
    if (existing) {
      if (existing.user_id === tx.userId && existing.video_id === videoId) return;
      throw new MutationError('conflict', 'That comment id is already taken.');
    }
    const video = await requireVideo(tx, videoId);
    await tx.addComment(video, { id: commentId, content });
  },
  updateProfileName: async (tx, { name }) => {
    await tx.setProfileName(name);
  },
  deleteVideo: async (tx, { videoId }) => {
    // Already gone is what the caller wanted: no refusal, no effect.
    const video = await tx.getVideo(videoId);
    if (!video) return;
    if (video.user_id !== tx.userId && !(await tx.isAdmin())) {
      throw new MutationError('forbidden', 'You can only delete your own videos.');
    }
    await tx.deleteVideo(video);
  },
  recordShare: async (tx, { shareId, videoId }) => {
    const existing = await tx.getShare(shareId);
    if (existing) {
      if (existing.user_id === tx.userId && existing.video_id === videoId) return;
      throw new MutationError('conflict', 'That share id is already taken.');
    }
    const video = await requireVideo(tx, videoId);
    await tx.addShare(video, shareId);
  },
  recordView: async (tx, { videoId, watchedMs }) => {
    const video = await requireVideo(tx, videoId);
    await tx.recordView(video, watchedMs);
  },
};

export async function runMutator(tx: MutatorTx, mutation: AnyMutation): Promise<void> {
  const mutator = mutators[mutation.name] as Mutator<MutationName>;
  await mutator(tx, mutation.args as never);
}
