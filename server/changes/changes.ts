import { changeRow, type Change } from './change-log';

/** Writes change-log rows inside the caller's transaction (Kysely, or a prepared statement on the push path). */
export type ChangeSink = (rows: ReturnType<typeof changeRow>[]) => Promise<void> | void;

/**
 * What one write changed, said once in terms of the product (a video, a like, a profile), and
 * turned here into the change-log rows a pull reads and the poke scopes a live stream filters by.
 * Rows are written by flush() in the same transaction as the change; the scopes and the tasks wait
 * for the commit (a poke before the commit would make clients pull rows that are not there yet).
 *
 * Scopes: `user:{id}` reaches that member's devices only; every other scope reaches everyone.
 */
export class Changes {
  private pending: Change[] = [];
  readonly scopes = new Set<string>();
  readonly afterCommitTasks: Array<() => Promise<void> | void> = [];

  constructor(readonly now: number) {}

  /** A video appeared or went: every feed may change. */
  videoListed(videoId: string, { deleted = false } = {}): this {
    this.pending.push({ entity: 'video', entityId: videoId, videoId: deleted ? null : videoId, deleted });
    this.scopes.add('feed');
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  /** A video's row changed (a counter, its poster, its media state). */
  video(videoId: string): this {
    this.pending.push({ entity: 'video', entityId: videoId, videoId });
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  /**
   * A video's row changed in a way only its owner sees (processing progress or failure: until it
   * is ready the video is shown to its uploader alone). The pull re-reads the row for whoever pulls
   * and sends it to the owner (to others it is not visible); only the owner's devices are poked.
   */
  videoOwnerOnly(videoId: string, ownerId: string): this {
    this.pending.push({ entity: 'video', entityId: videoId, videoId, userId: ownerId });
    this.scopes.add(`user:${ownerId}`);
    return this;
  }
  like(videoId: string, userId: string, { deleted = false } = {}): this {
    this.pending.push({ entity: 'like', entityId: `${videoId}:${userId}`, videoId, userId, deleted });
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  comment(commentId: string, videoId: string, userId: string, { deleted = false } = {}): this {
    this.pending.push({ entity: 'comment', entityId: commentId, videoId, userId, deleted });
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  /**
   * A member's profile. `shown` when what others see changed (the name on cards and comments, or
   * the member is gone): then every client pulls; otherwise (status, payment) only the member's own.
   */
  profile(userId: string, { shown = false, deleted = false } = {}): this {
    this.pending.push({ entity: 'profile', entityId: userId, userId, deleted });
    this.scopes.add(shown || deleted ? 'feed' : `user:${userId}`);
    return this;
  }

  /** Points, standings or prizes moved. */
  leaderboard(): this {
    this.pending.push({ entity: 'leaderboard', entityId: 'all' });
    this.scopes.add('leaderboard');
    return this;
  }

  /** The public settings (fee, prizes shown, ads). */
  settings(): this {
    this.pending.push({ entity: 'settings', entityId: 'public' });
    this.scopes.add('settings');
    return this;
  }

  /** Work that must wait for the commit and must not undo it (removing files, say). */
  afterCommit(task: () => Promise<void> | void): this {
    this.afterCommitTasks.push(task);
    return this;
  }

  /** Takes over the scopes and tasks of `other`, whose rows are already written (one poke for a whole push). */
  absorb(other: Changes): this {
    if (other.hasPending) throw new Error('Changes.absorb: flush the other changes first');
    for (const s of other.scopes) this.scopes.add(s);
    this.afterCommitTasks.push(...other.afterCommitTasks);
    return this;
  }

  /** Writes the rows gathered so far, in the caller's transaction. */
  async flush(sink: ChangeSink): Promise<void> {
    if (!this.pending.length) return;
    const rows = this.pending.map((c) => changeRow(c, this.now));
    this.pending = [];
    await sink(rows);
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }
}
