import type { MemberVideoKey, MutationTx, VideoCounter, VideoRef } from '#sync/mutations/mutation-tx';
import type { ClientDb, VideoRow } from './db';

/**
 * The optimistic tables: a mutation runs inside one Dexie read-write transaction on the tables the UI
 * reads. They only know the rows this device holds (a like is the card's `liked_by_me`, shares are not
 * kept at all); the server's answer replaces all of it on rebase.
 */
export class ClientMutationTx implements MutationTx {
  readonly location = 'client' as const;

  /**
   * Video rows this mutation has read, so a get then a like costs one IndexedDB round trip, and a
   * counter write is one put of the row instead of a cursor walk. Valid because the whole mutation
   * runs in one read-write transaction: nothing else writes the row meanwhile.
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

  /** The device holds only its own member's likes. */
  private own(key: MemberVideoKey): boolean {
    return key.userId === this.userId;
  }

  async isAdmin(): Promise<boolean> {
    return (await this.db.profile.get(this.userId))?.is_admin ?? false;
  }

  readonly videos = {
    get: async (id: string): Promise<VideoRef | undefined> => {
      const v = await this.row(id);
      return v ? { id: v.id, user_id: v.user_id, duration_ms: v.duration_ms } : undefined;
    },
    increment: (id: string, counter: VideoCounter, by: 1 | -1) => this.patchRow(id, (v) => ({ [counter]: Math.max(0, v[counter] + by) })),
    delete: async (video: VideoRef): Promise<void> => {
      this.rows.set(video.id, Promise.resolve(undefined));
      await this.db.videos.delete(video.id);
      await this.db.comments.where('video_id').equals(video.id).delete();
    },
  };

  readonly likes = {
    get: async (key: MemberVideoKey) => (this.own(key) && (await this.row(key.videoId))?.liked_by_me ? { created_at: 0 } : undefined),
    insert: async (key: MemberVideoKey) => {
      if (this.own(key)) await this.patchRow(key.videoId, () => ({ liked_by_me: true }));
    },
    delete: async (key: MemberVideoKey) => {
      if (this.own(key)) await this.patchRow(key.videoId, () => ({ liked_by_me: false }));
    },
  };

  readonly comments = {
    get: async (id: string) => {
      const c = await this.db.comments.get(id);
      return c ? { video_id: c.video_id, user_id: c.user_id } : undefined;
    },
    insert: async (row: { id: string; videoId: string; userId: string; content: string }) => {
      const me = await this.db.profile.get(this.userId);
      await this.db.comments.put({
        id: row.id,
        video_id: row.videoId,
        user_id: row.userId,
        user_name: me?.name ?? '',
        content: row.content,
        created_at: new Date(this.now).toISOString(),
        created_ms: this.now,
      });
    },
  };

  // Shares are not kept on the device (a share id is never reused by this client): the card counts
  // every share at once, and the server's count, which counts members, replaces it.
  readonly shares = {
    get: async () => undefined,
    anyBy: async () => false,
    insert: async () => {},
  };

  readonly profiles = {
    update: async (userId: string, patch: { name: string }) => {
      await this.db.profile
        .where('id')
        .equals(userId)
        .modify((p) => {
          p.name = patch.name;
        });
    },
  };

  readonly notifications = {
    markRead: async (id: string) => {
      await this.db.notifications.update(id, { read: true });
    },
  };
}
