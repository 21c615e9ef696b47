import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { MemberVideoKey, MutationTx, VideoCounter, VideoRef } from '#sync/mutations/mutation-tx';
import type { AuthUser } from '#server/context';
import type { MediaStore } from '#server/storage/media-store';
import type { Changes } from '#server/changes/changes';
import { settleScores, type ScoreMemo } from '#server/rewards/score-events';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { deleteMediaFiles } from '#server/media/storage';
import type { PushStatements } from '../push-statements';
import type { RerunPlan } from '../push';
import type { LikeNoteBuffer } from '#server/notifications/create';

/** What the mutations of one push transaction share: its hot statements and its score facts. */
export interface PushBatch {
  statements: PushStatements;
  scores: ScoreMemo;
  /** Set on PostgreSQL: no savepoint per mutation, a refusal reruns the transaction (push.ts). */
  rerun?: RerunPlan;
  /** Set on PostgreSQL: like notifications written at the push's end, in video id order (server/notifications/create.ts). */
  likeNotes?: LikeNoteBuffer;
}

/** One mutation's server context: its transaction, its caller, its time and the changes it declares. */
export interface ServerMutationContext {
  trx: Transaction<Database>;
  user: AuthUser;
  now: number;
  /** The mutation's client_time: only the view rule uses it (views are queued offline). */
  clientTime: number | undefined;
  batch: PushBatch;
  changes: Changes;
  /** Where the deleted video's objects go from, once the push committed. */
  media: MediaStore;
}

const inserted = (r: { numInsertedOrUpdatedRows?: bigint | undefined }) => Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;

/**
 * The authoritative tables: every write stamps the server's user and time and declares its change
 * (the change-log row and the poke), in the push's transaction. Likes are most of what a feed pushes:
 * their reads and writes go through the engine's hot statements (push-statements.ts); the rest use Kysely.
 * A like's or comment's change also tells pulls that its video's counters moved.
 */
export class ServerMutationTx implements MutationTx {
  readonly location = 'server' as const;

  /** One per push: `ctx` is replaced for each of its mutations (the tables read it at call time). */
  constructor(public ctx: ServerMutationContext) {}

  get userId(): string {
    return this.ctx.user.id;
  }

  async isAdmin(): Promise<boolean> {
    return this.ctx.user.isAdmin;
  }

  readonly videos = {
    get: (id: string): Promise<VideoRef | undefined> => this.ctx.batch.statements.video(id),
    // An increment, not a write of a value read earlier: concurrent ones add up.
    increment: async (id: string, counter: VideoCounter, by: 1 | -1): Promise<void> => {
      if (counter === 'likes_count') return this.ctx.batch.statements.bumpLikes(by, id);
      await this.ctx.trx
        .updateTable('videos')
        .set((eb) => ({ [counter]: eb(counter, '+', by) }))
        .where('id', '=', id)
        .execute();
    },
    delete: async (video: VideoRef): Promise<void> => {
      const { trx, changes, media } = this.ctx;
      // The deletion takes points off from the scores rows: the push's buffered ones must be there.
      await settleScores(trx, this.ctx.batch.scores);
      const gone = await deleteVideoInTx(trx, changes, video.id);
      this.ctx.batch.statements.forgetVideo(video.id);
      // Files are not transactional: they go once the deletion committed.
      if (gone) changes.afterCommit(() => deleteMediaFiles(media, gone.fileKeys));
    },
  };

  // Inserts and deletes answer whether a row changed (MutationTx): the counter and the change follow it.
  readonly likes = {
    get: (key: MemberVideoKey) => this.ctx.batch.statements.like(key.videoId, key.userId),
    insert: async (key: MemberVideoKey): Promise<boolean> => {
      const added = await this.ctx.batch.statements.insertLike(key.videoId, key.userId, this.ctx.now);
      if (added) this.ctx.changes.like(key.videoId, key.userId);
      return added;
    },
    delete: async (key: MemberVideoKey): Promise<boolean> => {
      const removed = await this.ctx.batch.statements.deleteLike(key.videoId, key.userId);
      if (removed) this.ctx.changes.like(key.videoId, key.userId, { deleted: true });
      return removed;
    },
  };

  readonly comments = {
    get: (id: string) => this.ctx.trx.selectFrom('comments').select(['video_id', 'user_id']).where('id', '=', id).executeTakeFirst(),
    insert: async (row: { id: string; videoId: string; userId: string; content: string }): Promise<boolean> => {
      const r = await this.ctx.trx
        .insertInto('comments')
        .values({ id: row.id, video_id: row.videoId, user_id: row.userId, content: row.content, created_at: this.ctx.now })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (!inserted(r)) return false;
      this.ctx.changes.comment(row.id, row.videoId, row.userId);
      return true;
    },
  };

  readonly shares = {
    get: (id: string) => this.ctx.trx.selectFrom('shares').select(['video_id', 'user_id']).where('id', '=', id).executeTakeFirst(),
    anyBy: async (key: MemberVideoKey): Promise<boolean> => {
      const row = await this.ctx.trx
        .selectFrom('shares')
        .select('id')
        .where('user_id', '=', key.userId)
        .where('video_id', '=', key.videoId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    insert: async (row: { id: string; videoId: string; userId: string }): Promise<boolean> => {
      const r = await this.ctx.trx
        .insertInto('shares')
        .values({ id: row.id, video_id: row.videoId, user_id: row.userId, created_at: this.ctx.now })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (!inserted(r)) return false;
      // Declared even when the count stays: the sharing device counted it and must pull the real count.
      this.ctx.changes.video(row.videoId);
      return true;
    },
  };

  readonly profiles = {
    update: async (userId: string, patch: { name: string }): Promise<void> => {
      await this.ctx.trx.updateTable('profiles').set({ name: patch.name, updated_at: this.ctx.now }).where('id', '=', userId).execute();
      // Names show on feed cards and comments: every client may need to pull.
      this.ctx.changes.profile(userId, { shown: true });
    },
  };

  readonly notifications = {
    // Scoped to the caller in the statement itself: another member's id matches no row.
    markRead: async (id: string): Promise<boolean> => {
      const { trx, user, now, changes } = this.ctx;
      const r = await trx
        .updateTable('notifications')
        // Read already: a like's batched push still waiting would tell of something seen (a new like reopens it).
        .set({ read_at: now, push_due_at: null })
        .where('id', '=', id)
        .where('user_id', '=', user.id)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      changes.notification(id, user.id);
      return true;
    },
  };
}
