import type { AnyEntity, RowOf } from '#sync/entities/define-entity';
import { profiles } from '#sync/entities/registry';
import { changeRow, type Change, type ChangeEntity, type ChangeRow } from './change-log';

/**
 * Writes change-log rows inside the caller's transaction, as its last write: writeChangeLog (which
 * takes the change-log lock), or SQLite's prepared insert on the push path (no lock there).
 */
export type ChangeSink = (rows: ChangeRow[]) => Promise<void> | void;

/**
 * What one write changed, said once in terms of the product (a video, a like, a profile), and
 * turned here into the change-log rows a pull reads and the poke scopes a live stream filters by.
 * Rows are written by flush() at the end of the same transaction as the change (on PostgreSQL the
 * change-log lock is then held only from that insert to the commit); the scopes and the tasks wait
 * for the commit (a poke before the commit would make clients pull rows that are not there yet).
 *
 * Scopes: `user:{id}` reaches that member's devices only; every other scope reaches everyone.
 */
export class Changes {
  /** Made into rows when declared: a row carries the time of the write that declared it. */
  private pending: ChangeRow[] = [];
  readonly scopes = new Set<string>();
  readonly afterCommitTasks: Array<() => Promise<void> | void> = [];

  constructor(readonly now: number) {}

  /** A video appeared or went: every feed may change. */
  videoListed(videoId: string, { deleted = false } = {}): this {
    this.add({ entity: 'video', entityId: videoId, videoId: deleted ? null : videoId, deleted });
    this.scopes.add('feed');
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  /** A video's row changed (a counter, its poster, its media state). */
  video(videoId: string): this {
    this.add({ entity: 'video', entityId: videoId, videoId });
    this.scopes.add(`video:${videoId}`);
    return this;
  }

  /**
   * A video's row changed in a way only its owner sees (processing progress or failure: until it
   * is ready the video is shown to its uploader alone). The pull re-reads the row for whoever pulls
   * and sends it to the owner (to others it is not visible); only the owner's devices are poked.
   */
  videoOwnerOnly(videoId: string, ownerId: string): this {
    this.add({ entity: 'video', entityId: videoId, videoId, userId: ownerId });
    this.scopes.add(`user:${ownerId}`);
    return this;
  }
  /**
   * A member's profile. `shown` when what others see changed (the name or handle on cards and
   * comments, or the member is gone): then every client pulls their cards again. Otherwise (status,
   * payment, follower counts) it is an `account` change: only the member's own devices pull, and
   * only their own profile.
   */
  profile(userId: string, { shown = false, deleted = false } = {}): this {
    if (!shown && !deleted) {
      this.add({ entity: 'account', entityId: userId, userId });
      this.scopes.add(`user:${userId}`);
      return this;
    }
    return this.row(profiles, { id: userId, name: '', handle: '' }, { deleted });
  }

  /**
   * What the member's devices hold may now show what they must not, or hide what they may see (a
   * block or a mute, docs/decisions/0024-safety.md): their next pull is a snapshot, read with the
   * change applied, and their live streams send a plain poke instead of a delta (the client pulls).
   */
  resync(userId: string): this {
    this.add({ entity: 'resync', entityId: userId, userId });
    this.scopes.add(`user:${userId}`);
    return this;
  }

  /**
   * A row of a synced entity changed, as its declaration says (sync/entities/registry.ts): its
   * change-log entry and the scope of the members it reaches. The table adapters declare this way,
   * and so does every other writer of a synced row (an admin's deletion, a notification).
   */
  row<E extends AnyEntity>(entity: E, row: RowOf<E>, { deleted = false } = {}): this {
    const change = entity.changes(row);
    if (!change) return this;
    const { reaches, ...rest } = change;
    this.add({ ...rest, entity: entity.log.entity as ChangeEntity, deleted });
    this.scopes.add(reaches);
    return this;
  }

  /** Points, standings or prizes moved. */
  leaderboard(): this {
    this.add({ entity: 'leaderboard', entityId: 'all' });
    this.scopes.add('leaderboard');
    return this;
  }

  /** The public settings (fee, prizes shown, ads). */
  settings(): this {
    this.add({ entity: 'settings', entityId: 'public' });
    this.scopes.add('settings');
    return this;
  }

  /** Work that must wait for the commit and must not undo it (removing files, say). */
  afterCommit(task: () => Promise<void> | void): this {
    this.afterCommitTasks.push(task);
    return this;
  }

  /**
   * Takes over the unwritten rows, scopes and tasks of `other` (one applied mutation of a push): the
   * push writes all its mutations' rows at its end, and pokes once for all of them.
   */
  absorb(other: Changes): this {
    this.pending.push(...other.pending);
    other.pending = [];
    for (const s of other.scopes) this.scopes.add(s);
    this.afterCommitTasks.push(...other.afterCommitTasks);
    return this;
  }

  /** Writes the rows gathered so far, in the caller's transaction: call it as the transaction's last write. */
  async flush(sink: ChangeSink): Promise<void> {
    if (!this.pending.length) return;
    const rows = this.pending;
    this.pending = [];
    await sink(rows);
  }

  private add(change: Change): void {
    this.pending.push(changeRow(change, this.now));
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }
}
