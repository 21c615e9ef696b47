import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { MutatorTx, VideoRef } from '#sync/mutations/parse-mutation';
import type { AuthUser } from '#server/context';
import { applyScoreEvent, type ScoreMemo } from '#server/rewards/score-events';
import { commentAdded, startsPair } from '#server/rewards/comment-pairs';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { Changes } from '#server/changes/changes';
import { kyselySink } from '#server/changes/write-tx';
import { recordAudit } from '#server/admin/audit';
import { changeRow, logChange } from '#server/changes/change-log';
import type { PushStatements } from '../push-statements';
import { recordViewInTx } from './record-view';

/** What the mutations of one push batch share: prepared statements and the batch's score facts. */
export interface PushBatch {
  statements: PushStatements;
  scores: ScoreMemo;
}

/**
 * The authoritative MutatorTx: every write stamps the server's user id and time, keeps the video
 * counters, the change log and the leaderboard points in step inside the same transaction, and
 * collects what to poke and what to clean up once the transaction has committed.
 */
export class ServerMutatorTx implements MutatorTx {
  readonly location = 'server' as const;
  readonly userId: string;
  readonly pokeScopes = new Set<string>();
  /** Media keys of deleted videos, removed after commit (files are not transactional). */
  readonly deletedFileKeys: Array<string | null> = [];

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly user: AuthUser,
    private readonly now: number,
    /** The mutation's client_time: only rewards' view rule uses it (views are queued offline). */
    private readonly clientTime: number | undefined,
    private readonly batch: PushBatch,
  ) {
    this.userId = user.id;
  }

  async isAdmin(): Promise<boolean> {
    return this.user.isAdmin;
  }

  async getVideo(videoId: string): Promise<VideoRef | undefined> {
    return this.batch.statements.video.get(videoId);
  }

  async getLike(videoId: string) {
    return this.batch.statements.like.get(videoId, this.userId);
  }

  // Likes are most of what a feed pushes: their writes go through prepared statements (see
  // push-statements.ts); the rarer mutations keep Kysely.
  async addLike(video: VideoRef): Promise<void> {
    const s = this.batch.statements;
    s.insertLike.run(video.id, this.userId, this.now);
    s.bumpLikes.run(1, video.id);
    await applyScoreEvent(
      this.trx,
      { kind: 'like', actorId: this.userId, creatorId: video.user_id, delta: 1, occurredAt: this.now, at: this.now },
      this.batch.scores,
    );
    s.logChange.run(changeRow({ entity: 'like', entityId: `${video.id}:${this.userId}`, videoId: video.id, userId: this.userId }, this.now));
    this.pokeScopes.add(`video:${video.id}`);
  }

  async removeLike(video: VideoRef, like: { created_at: number }): Promise<void> {
    const s = this.batch.statements;
    s.deleteLike.run(video.id, this.userId);
    s.bumpLikes.run(-1, video.id);
    await applyScoreEvent(
      this.trx,
      { kind: 'like', actorId: this.userId, creatorId: video.user_id, delta: -1, occurredAt: like.created_at, at: this.now },
      this.batch.scores,
    );
    s.logChange.run(changeRow({ entity: 'like', entityId: `${video.id}:${this.userId}`, videoId: video.id, userId: this.userId, deleted: true }, this.now));
    this.pokeScopes.add(`video:${video.id}`);
  }

  async getComment(commentId: string) {
    return this.trx.selectFrom('comments').select(['video_id', 'user_id']).where('id', '=', commentId).executeTakeFirst();
  }

  async addComment(video: VideoRef, comment: { id: string; content: string }): Promise<void> {
    // Every comment counts in comments_count; only a member's first on the video in the period scores.
    const first = await startsPair(this.trx, this.userId, video.id, this.batch.scores);
    await this.trx
      .insertInto('comments')
      .values({ id: comment.id, video_id: video.id, user_id: this.userId, content: comment.content, created_at: this.now })
      .execute();
    await this.bump(video.id, 'comments_count', 1);
    if (first) await commentAdded(this.trx, { userId: this.userId, creatorId: video.user_id, createdAt: this.now }, this.batch.scores);
    await logChange(this.trx, { entity: 'comment', entityId: comment.id, videoId: video.id, userId: this.userId }, this.now);
    this.pokeScopes.add(`video:${video.id}`);
  }

  async getShare(shareId: string) {
    return this.trx.selectFrom('shares').select(['video_id', 'user_id']).where('id', '=', shareId).executeTakeFirst();
  }

  async addShare(video: VideoRef, shareId: string): Promise<void> {
    // shares_count counts members: every share is stored (its id makes replays harmless), but only
    // a member's first share of the video moves the counter (one probe of shares_user_video).
    const again = await this.trx
      .selectFrom('shares')
      .select('id')
      .where('user_id', '=', this.userId)
      .where('video_id', '=', video.id)
      .limit(1)
      .executeTakeFirst();
    await this.trx.insertInto('shares').values({ id: shareId, video_id: video.id, user_id: this.userId, created_at: this.now }).execute();
    if (!again) await this.bump(video.id, 'shares_count', 1);
    // Logged either way: the sharing device counted it optimistically and must pull the real count.
    await logChange(this.trx, { entity: 'video', entityId: video.id, videoId: video.id }, this.now);
    this.pokeScopes.add(`video:${video.id}`);
  }

  async recordView(video: VideoRef, watchedMs: number): Promise<void> {
    if (await recordViewInTx(this.trx, { video, userId: this.userId, watchedMs, clientTime: this.clientTime, now: this.now, memo: this.batch.scores })) {
      this.pokeScopes.add(`video:${video.id}`);
    }
  }

  async setProfileName(name: string): Promise<void> {
    await this.trx.updateTable('profiles').set({ name, updated_at: this.now }).where('id', '=', this.userId).execute();
    await logChange(this.trx, { entity: 'profile', entityId: this.userId, userId: this.userId }, this.now);
    // Names show on feed cards and comments, so every client may need to pull.
    this.pokeScopes.add('feed');
  }

  async deleteVideo(video: VideoRef): Promise<void> {
    const changes = new Changes(this.now);
    const deleted = await deleteVideoInTx(this.trx, changes, video.id);
    await changes.flush(kyselySink(this.trx));
    if (!deleted) return;
    // Another member's video goes only by an admin's hand: audited like DELETE /api/admin/videos/:id.
    if (deleted.ownerId !== this.userId) {
      await recordAudit(this.trx, { actorId: this.userId, action: 'video.delete', target: video.id, details: { owner_id: deleted.ownerId } }, this.now);
    }
    this.deletedFileKeys.push(...deleted.fileKeys);
    this.pokeScopes.add('feed');
    this.pokeScopes.add('leaderboard');
  }

  private async bump(videoId: string, column: 'likes_count' | 'comments_count' | 'shares_count', delta: 1 | -1): Promise<void> {
    await this.trx
      .updateTable('videos')
      .set((eb) => ({ [column]: eb(column, '+', delta) }))
      .where('id', '=', videoId)
      .execute();
  }
}
