import { lockMember, lockScoringShared } from '#db/locks';
import type { PushRequest, PushResponse } from '#sync/protocol/messages';
import type { AppDeps, AuthUser } from '../context';
import { newPendingScores, newScoreMemo, primeEligibility } from '../rewards/score-events';
import { afterCommit, applyPush, RerunPush, type AppliedPush } from './push';
import type { RerunPlan } from './mutations/context';
import { retryTransactionConflicts } from '../changes/conflict-retry';
import { LikesRaced, postgresPushStatements } from './push-statements-postgres';
import { mutationVideoId } from '#sync/mutations/video-id';

/**
 * A push on PostgreSQL: no group commit (each push runs in a transaction of its own; the server
 * commits many sessions at once by itself, and a group would make every push wait for the slowest).
 * A push is at most MAX_PUSH_BATCH mutations and, without savepoints (mutations/context.ts, RerunPlan), one
 * transaction however long: it moves the client's last_mutation_id with its mutations, and its
 * views share one watch-time window (server/rewards/view-rules.ts).
 */
export async function pushOnPostgres(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<PushResponse> {
  const applied = await runPart(deps, user, req);
  await afterCommit(deps, applied);
  return applied.response;
}

/** One transaction of a push, run again whole after a lost deadlock, or under a new plan after a refusal (mutations/context.ts, RerunPlan). */
async function runPart(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<AppliedPush> {
  const plan: RerunPlan = { refused: new Map() };
  let likesAtEnd = true;
  // Each rerun settles one more mutation (refused) or stops earlier, so this ends.
  for (;;) {
    try {
      return await retryTransactionConflicts(() => pushTransaction(deps, user, req, plan, likesAtEnd));
    } catch (err) {
      if (err instanceof LikesRaced) {
        likesAtEnd = false;
        continue;
      }
      if (!(err instanceof RerunPush)) throw err;
      if (err.refusal) plan.refused.set(err.mutationId, err.refusal);
      else plan.stopAt = err.mutationId;
    }
  }
}

/**
 * One transaction of a push. Its locks are taken in one order by every push: the member, scoring,
 * the videos it names (in id order; for a push of likes and unlikes, shared until its end), the client's
 * row, then at its end the videos' counters, the member's day counts and the scores rows it writes
 * (in user id order), and the change log last. Pushes queue rather than deadlock among themselves,
 * and overlap for all but their last statements; a deadlock with another kind of write (or on a
 * scores row two pushes create at once) is retried.
 */
function pushTransaction(deps: AppDeps, user: AuthUser, req: PushRequest, rerun: RerunPlan, likesAtEnd: boolean): Promise<AppliedPush> {
  return deps.db.transaction().execute(async (trx) => {
    // A member's pushes one at a time (their view windows, daily counts, first share, comment
    // pairs are read, then written), from any device or client id.
    await lockMember(trx, user.id);
    // The period, eligibility and the cap read by the scoring stay put until the commit.
    await lockScoringShared(trx);
    const videoIds = new Set(req.mutations.map(mutationVideoId).filter((id): id is string => id !== undefined));
    const statements = postgresPushStatements(trx);
    // A push of likes and unlikes only writes its videos at its end; any other mutation may write them as it runs.
    const onlyLikes = req.mutations.every((m) => m.name === 'like' || m.name === 'unlike');
    // Its like rows too, unless an earlier run found one inserted meanwhile (LikesRaced).
    const videos = await statements.prefetch(user.id, [...videoIds], onlyLikes ? 'share' : 'update', onlyLikes && likesAtEnd);
    const scores = newScoreMemo();
    // Points are buffered and written at the end; the scores rows they go to are locked only then.
    const users = [user.id, ...videos.map((v) => v.user_id)];
    scores.pending = newPendingScores(users);
    if (videos.length) await primeEligibility(trx, scores, users);
    const batch = { statements, scores, rerun, likeNotes: new Map() };
    return applyPush(trx, batch, deps, user, req);
  });
}
