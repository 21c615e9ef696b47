import type { MutatorTx, VideoRef } from '#sync/mutations/run-mutator';
import type { ClientDb, VideoRow } from './db';

/**
 * The optimistic MutatorTx: runs inside a Dexie read-write transaction on the tables the UI reads.
 * It only knows the rows this device holds; the server's answer replaces all of it on rebase.
 */
export class ClientMutatorTx implements MutatorTx {
  readonly location = 'client' as const;

  /**
   * Video rows this mutation has read, so getVideo then getLike cost one IndexedDB round trip, and
   * a counter write is one put of the row instead of a cursor walk. Valid because the whole
   * mutation runs in one read-write transaction: nothing else writes the row meanwhile.
   */
  private readonly rows = new Map<string, Promise<VideoRow | undefined>>();

  constructor(
    private readonly db: ClientDb,
    readonly userId: string,
    private readonly now: number,
  ) {}

  private row(videoId: string): Promise<VideoRow | undefined> {
    let r = this.rows.get(videoId);
    if (!r) {
      r = this.db.videos.get(videoId);
      this.rows.set(videoId, r);
    }
    return r;
  }

  private async patchRow(videoId: string, change: (v: VideoRow) => Partial<VideoRow>): Promise<void> {
    const v = await this.row(videoId);
    if (!v) return;
    const next = { ...v, ...change(v) };
    this.rows.set(videoId, Promise.resolve(next));
    await this.db.videos.put(next);
  }

  async isAdmin(): Promise<boolean> {
    return (await this.db.profile.get(this.userId))?.is_admin ?? false;
  }

  async getVideo(videoId: string): Promise<VideoRef | undefined> {
    const v = await this.row(videoId);
    return v ? { id: v.id, user_id: v.user_id, duration_ms: v.duration_ms } : undefined;
  }

  async getLike(videoId: string) {
    const v = await this.row(videoId);
    return v?.liked_by_me ? { created_at: 0 } : undefined;
  }

  async addLike(video: VideoRef): Promise<void> {
    await this.patchRow(video.id, (v) => ({ liked_by_me: true, likes_count: v.likes_count + 1 }));
  }

  async removeLike(video: VideoRef): Promise<void> {
    await this.patchRow(video.id, (v) => ({ liked_by_me: false, likes_count: Math.max(0, v.likes_count - 1) }));
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
    await this.patchRow(video.id, (v) => ({ comments_count: v.comments_count + 1 }));
  }

  async getShare(): Promise<undefined> {
    // Shares are not kept on the device; a share id is never reused by this client.
    return undefined;
  }

  async addShare(video: VideoRef): Promise<void> {
    await this.patchRow(video.id, (v) => ({ shares_count: v.shares_count + 1 }));
  }

  async recordView(): Promise<void> {
    // Whether a view counts is the server's call (one per viewer, anti-cheat); nothing to show early.
  }

  async setProfileName(name: string): Promise<void> {
    await this.db.profile
      .where('id')
      .equals(this.userId)
      .modify((p) => {
        p.name = name;
      });
  }

  async deleteVideo(video: VideoRef): Promise<void> {
    this.rows.set(video.id, Promise.resolve(undefined));
    await this.db.videos.delete(video.id);
    await this.db.comments.where('video_id').equals(video.id).delete();
  }
}
