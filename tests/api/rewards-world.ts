import { testHandle } from '../helpers/test-handle';
import { randomUUID } from 'node:crypto';
import { lockMember, lockScoringShared } from '#db/locks';
import type { AppDeps } from '#server/context';
import { applyScoreEvent, eligibleUsers } from '#server/rewards/score-events';
import { commentRemoved } from '#server/rewards/comment-pairs';
import { voidMember } from '#server/rewards/breakdown';
import { applyCapChange } from '#server/rewards/viewer-days';
import { limitsSetting } from '#server/settings/definitions';
import { writeSetting } from '#server/settings/store';
import { runServerMutation } from '#server/sync/mutations/effects';
import { serverMutationTx } from '#server/sync/mutations/server-tables';
import { newPushBatch } from '#server/sync/push';
import type { AnyMutation } from '#sync/mutations/catalogue';
import { kyselySink } from '#server/changes/write-tx';
import { MutationError } from '#sync/protocol/error-codes';
import { onUserDeleted, onUserReactivated, onUserSuspended } from '#server/rewards/member-status';
import { recordQualifyingView, type RecordViewResult } from '#server/rewards/view-rules';
import { recomputeScores, standingsOf } from '#server/rewards/recompute';
import { recordDistribution } from '#server/rewards/distributions';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { Changes } from '#server/changes/changes';
import { ApiError } from '#server/http/errors';
import { insertVideo } from '../helpers/videos';

/**
 * Builds rewards scenarios on the real database through the same write paths the app uses: the
 * sync mutations themselves (runServerMutation: the shared logic and its server effects), recordQualifyingView,
 * deleteVideoInTx, and the member-status hooks the admin area calls. Time is explicit.
 */
/** Empties every table the rewards scenarios write, children first: each scenario starts with nobody scored and no period closed. */
export async function emptyRewardsTables(deps: AppDeps): Promise<void> {
  for (const table of [
    'distribution_winners',
    'distributions',
    'scores',
    'viewer_days',
    'view_credits',
    'reward_voids',
    'prizes',
    'settings',
    'audit_log',
    'views',
    'likes',
    'comments',
    'shares',
    'videos',
    'profiles',
  ] as const) {
    await deps.db.deleteFrom(table).execute();
  }
}

export function rewardsWorld(deps: AppDeps) {
  const db = deps.db;
  let clock = 1_800_000_000_000;
  const tick = (ms = 1000) => (clock += ms);

  /** One mutation in a transaction of its own, as a push of one would apply it; false when refused. */
  async function mutate(actorId: string, mutation: { name: string; args: unknown }, at: number): Promise<boolean> {
    try {
      await db.transaction().execute(async (trx) => {
        // The push path's own statements for this engine, and its locks (push-postgres.ts; no-ops on SQLite).
        await lockMember(trx, actorId);
        await lockScoringShared(trx);
        const batch = newPushBatch(deps.engine, trx);
        const changes = new Changes(at);
        const user = { id: actorId, email: '', name: '', isAdmin: false };
        const tx = serverMutationTx({ trx, user, now: at, clientTime: undefined, batch, changes, media: deps.media });
        await runServerMutation(tx, mutation as AnyMutation);
        await changes.flush(kyselySink(trx));
      });
      return true;
    } catch (e) {
      if (e instanceof MutationError) return false;
      throw e;
    }
  }

  return {
    db,
    now: () => clock,
    tick,
    async user(name: string): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto('profiles')
        .values({
          id,
          email: `${id}@example.test`,
          name,
          handle: testHandle(id),
          is_admin: 0,
          is_active: 1,
          account_status: 'active',
          email_verified_at: clock,
          created_at: clock,
          updated_at: clock,
        })
        .execute();
      return id;
    },
    async video(ownerId: string, durationMs = 30_000): Promise<string> {
      return insertVideo({ db }, ownerId, { title: 'clip', size_bytes: 1000, duration_ms: durationMs, created_at: clock });
    },
    async ownerOf(videoId: string): Promise<string> {
      return (await db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirstOrThrow()).user_id;
    },
    /** Likes, unlikes, comments and shares run the real sync mutations (runServerMutation) at the world's time. */
    async like(actorId: string, videoId: string): Promise<boolean> {
      return mutate(actorId, { name: 'like', args: { videoId } }, tick());
    },
    async unlike(actorId: string, videoId: string): Promise<boolean> {
      return mutate(actorId, { name: 'unlike', args: { videoId } }, tick());
    },
    async comment(actorId: string, videoId: string): Promise<string | null> {
      const commentId = randomUUID();
      return (await mutate(actorId, { name: 'addComment', args: { commentId, videoId, content: 'nice' } }, tick())) ? commentId : null;
    },
    async share(actorId: string, videoId: string): Promise<boolean> {
      return mutate(actorId, { name: 'recordShare', args: { shareId: randomUUID(), videoId } }, tick());
    },
    /** As a comment deletion would do it: the row goes, then the pair rule decides what moves. */
    async deleteComment(commentId: string): Promise<boolean> {
      tick();
      return db.transaction().execute(async (trx) => {
        const c = await trx
          .selectFrom('comments')
          .innerJoin('videos', 'videos.id', 'comments.video_id')
          .select(['comments.user_id', 'comments.created_at', 'comments.video_id', 'videos.user_id as owner'])
          .where('comments.id', '=', commentId)
          .executeTakeFirst();
        if (!c) return false;
        await trx.deleteFrom('comments').where('id', '=', commentId).execute();
        await trx
          .updateTable('videos')
          .set((eb) => ({ comments_count: eb('comments_count', '-', 1) }))
          .where('id', '=', c.video_id)
          .execute();
        await commentRemoved(trx, { userId: c.user_id, videoId: c.video_id, creatorId: c.owner, createdAt: Number(c.created_at) });
        return true;
      });
    },
    async view(actorId: string, videoId: string, watchedMs: number, opts: { clientTime?: number; advance?: number } = {}): Promise<RecordViewResult> {
      const now = tick(opts.advance ?? 5000);
      return db.transaction().execute((trx) => recordQualifyingView(trx, { viewerId: actorId, videoId, watchedMs, clientTime: opts.clientTime, now }));
    },
    async deleteVideo(videoId: string): Promise<boolean> {
      const at = tick();
      return db.transaction().execute(async (trx) => (await deleteVideoInTx(trx, new Changes(at), videoId)) !== null);
    },
    async suspend(userId: string): Promise<void> {
      const at = tick();
      await db.transaction().execute(async (trx) => {
        const r = await trx.updateTable('profiles').set({ is_active: 0 }).where('id', '=', userId).where('is_active', '=', 1).executeTakeFirst();
        if (Number(r.numUpdatedRows)) await onUserSuspended(trx, userId, new Changes(at));
      });
    },
    async reactivate(userId: string): Promise<void> {
      const at = tick();
      await db.transaction().execute(async (trx) => {
        const r = await trx.updateTable('profiles').set({ is_active: 1 }).where('id', '=', userId).where('is_active', '=', 0).executeTakeFirst();
        // As the admin area does it: a member voided for the period stays out of it.
        if (Number(r.numUpdatedRows) && (await eligibleUsers(trx, [userId])).size) await onUserReactivated(trx, userId, new Changes(at));
      });
    },
    /** As the admin area does it: the hook first, then everything of theirs, then the profile. */
    async deleteUser(userId: string): Promise<void> {
      const at = tick();
      await db.transaction().execute(async (trx) => {
        await onUserDeleted(trx, userId, new Changes(at));
        const own = await trx.selectFrom('videos').select('id').where('user_id', '=', userId).execute();
        for (const v of own) await deleteVideoInTx(trx, new Changes(at), v.id);
        const likes = await trx
          .selectFrom('likes')
          .innerJoin('videos', 'videos.id', 'likes.video_id')
          .select(['likes.created_at', 'videos.user_id as owner'])
          .where('likes.user_id', '=', userId)
          .execute();
        // Undoing them one by one after the hook must move nothing.
        for (const l of likes)
          await applyScoreEvent(trx, { kind: 'like', actorId: userId, creatorId: l.owner, delta: -1, occurredAt: Number(l.created_at), at });
        // As delete-user.ts does: they leave the shares_count of each video they shared.
        const shares = await trx.selectFrom('shares').select('video_id').distinct().where('user_id', '=', userId).execute();
        for (const sh of shares)
          await trx
            .updateTable('videos')
            .set((eb) => ({ shares_count: eb('shares_count', '-', 1) }))
            .where('id', '=', sh.video_id)
            .execute();
        await trx.deleteFrom('profiles').where('id', '=', userId).execute();
      });
    },
    async distribute(adminId: string) {
      const at = tick();
      const last = await db.selectFrom('distributions').select('created_at').orderBy('period_start', 'desc').limit(1).executeTakeFirst();
      try {
        return await db.transaction().execute((trx) => recordDistribution(trx, new Changes(at), { adminId, periodStart: Number(last?.created_at ?? 0) }));
      } catch (e) {
        if (e instanceof ApiError && e.code === 'nothing_to_distribute') return null;
        throw e;
      }
    },
    /** As the admin Settings tab saves it: the setting, then the boards under the new cap. */
    async setCap(cap: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await writeSetting(trx, limitsSetting, { viewer_daily_points_cap: cap, upload_daily_mib: 2048 }, tick());
        await applyCapChange(trx, cap);
      });
    },
    async voidPoints(userId: string, adminId: string) {
      const at = tick();
      return db.transaction().execute((trx) => voidMember(trx, new Changes(at), { userId, adminId }));
    },
    async counters() {
      return standingsOf((await db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r })));
    },
    async recomputed() {
      return standingsOf(await recomputeScores(db));
    },
    async points(userId: string) {
      const r = await db.selectFrom('scores').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return { creator: Number(r?.creator_points ?? 0), viewer: Number(r?.viewer_points ?? 0) };
    },
  };
}

export type RewardsWorld = ReturnType<typeof rewardsWorld>;
