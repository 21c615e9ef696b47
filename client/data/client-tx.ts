import type { MutatorTx, VideoRef } from '../../sync/mutations/mutators';
import type { ClientDb } from './db';

/**
 * The optimistic MutatorTx: runs inside a Dexie read-write transaction on the tables the UI reads.
 * It only knows the rows this device holds; the server's answer replaces all of it on rebase.
 */
export class ClientMutatorTx implements MutatorTx {
  readonly location = 'client' as const;

  constructor(
    private readonly db: ClientDb,
    readonly userId: string,
    private readonly now: number,
  ) {}

  async isAdmin(): Promise<boolean> {
    return (await this.db.profile.get(this.userId))?.is_admin ?? false;
  }

  async getVideo(videoId: string): Promise<VideoRef | undefined> {
    const v = await this.db.videos.get(videoId);
    return v ? { id: v.id, user_id: v.user_id, duration_ms: v.duration_ms } : undefined;
  }

  async getLike(videoId: string) {
    const v = await this.db.videos.get(videoId);
    return v?.liked_by_me ? { created_at: 0 } : undefined;
  }

  async addLike(video: VideoRef): Promise<void> {
    await this.db.videos.where('id').equals(video.id).modify((v) => {
      v.liked_by_me = true;
      v.likes_count += 1;
    });
  }

  async removeLike(video: VideoRef): Promise<void> {
    await this.db.videos.where('id').equals(video.id).modify((v) => {
      v.liked_by_me = false;
      v.likes_count = Math.max(0, v.likes_count - 1);
    });
  }

  async getComment(commentId: string) {
    const c = await this.db.comments.get(commentId);
    return c ? { video_id: c.video_id, user_id: c.user_id } : undefined;
  }

  async addComment(video: VideoRef, comment: { id: string; content: string }): Promise<void> {
    const me = await this.db.profile.get(this.userId);
    await this.db.comments.put({
      id: comment.id,
      video_id: video.id,
      user_id: this.userId,
      user_name: me?.name ?? '',
      content: comment.content,
      created_at: new Date(this.now).toISOString(),
      created_ms: this.now,
    });
    await this.db.videos.where('id').equals(video.id).modify((v) => {
      v.comments_count += 1;
    });
  }

  async getShare(): Promise<undefined> {
    // Shares are not kept on the device; a share id is never reused by this client.
    return undefined;
  }

  async addShare(video: VideoRef): Promise<void> {
    await this.db.videos.where('id').equals(video.id).modify((v) => {
      v.shares_count += 1;
    });
  }

  async recordView(): Promise<void> {
    // Whether a view counts is the server's call (one per viewer, anti-cheat); nothing to show early.
  }

  async setProfileName(name: string): Promise<void> {
    await this.db.profile.where('id').equals(this.userId).modify((p) => {
      p.name = name;
    });
  }

  async deleteVideo(video: VideoRef): Promise<void> {
    await this.db.videos.delete(video.id);
    await this.db.comments.where('video_id').equals(video.id).delete();
  }
}
