import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockMember, lockScoringShared } from '#db/locks';
import type { ScoreMemo } from '../rewards/score-events';
import { MAX_PUSH_BATCH, type MutationResult, type PushRequest, type PushResponse } from '#sync/protocol/messages';
import type { AppDeps, AuthUser } from '../context';
import { newPendingScores, newScoreMemo, primeEligibility } from '../rewards/score-events';
import { afterCommit, applyPush, RerunPush, type AppliedPush, type RerunPlan } from './push';
import { retryTransactionConflicts } from '../changes/conflict-retry';
import { LikesRaced, postgresPushStatements } from './push-statements-postgres';
import { mutationVideoId } from '#sync/mutations/video-id';

/**
 * Mutations per transaction: a whole push (MAX_PUSH_BATCH). It was 50 while each mutation was a
 * savepoint (PostgreSQL keeps 64 subtransactions per backend in shared memory; past that every other
 * session's visibility checks read pg_subtrans); without savepoints (push.ts, RerunPlan) a longer
 * transaction costs nothing more, and each one saves its locks, reads and commit. The split stays
 * for a larger MAX_PUSH_BATCH.
 */
export const MUTATIONS_PER_TRANSACTION = MAX_PUSH_BATCH;

/**
 * A push on PostgreSQL: no group commit (each push runs in transactions of its own; the server
 * commits many sessions at once by itself, and a group would make every push wait for the slowest),
 * at most MUTATIONS_PER_TRANSACTION mutations per transaction, each transaction moving the client's
 * last_mutation_id with its mutations. A transaction that lost a deadlock runs again whole. When a
 * later transaction of the push fails, the committed ones are answered (a prefix of the batch, as
 * when a mutation stops a push) and the client sends the rest again.
 */
export async function pushOnPostgres(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<PushResponse> {
  const results: MutationResult[] = [];
  let lastMutationId = 0;
  let from = 0;
  let window: ViewWindow | undefined;
  do {
    const part: PushRequest = { client_id: req.client_id, mutations: req.mutations.slice(from, from + MUTATIONS_PER_TRANSACTION) };
    let applied: Part;
    try {
      const carried = window;
      applied = await runPart(deps, user, part, carried);
      window = applied.window;
    } catch (err) {
      if (from === 0) throw err;
      deps.log.error(`sync push stopped at mutation ${part.mutations[0]?.id}`, err);
      break;
    }
    await afterCommit(deps, applied);
    results.push(...applied.response.results);
    lastMutationId = applied.response.last_mutation_id;
    // A part stopped early: what follows it is not applied either.
    if (applied.response.results.length < part.mutations.length) break;
    from += MUTATIONS_PER_TRANSACTION;
  } while (from < req.mutations.length);
  return { results, last_mutation_id: lastMutationId };
}

type Part = AppliedPush & { window: ViewWindow | undefined };

/** One transaction of a push, run again whole after a lost deadlock, or under a new plan after a refusal (push.ts, RerunPlan). */
async function runPart(deps: AppDeps, user: AuthUser, req: PushRequest, window: ViewWindow | undefined): Promise<Part> {
  const plan: RerunPlan = { refused: new Map() };
  let likesAtEnd = true;
  // Each rerun settles one more mutation (refused) or stops earlier, so this ends.
  for (;;) {
    try {
      return await retryTransactionConflicts(() => pushTransaction(deps, user, req, window, plan, likesAtEnd));
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
function pushTransaction(
  deps: AppDeps,
  user: AuthUser,
  req: PushRequest,
  window: ViewWindow | undefined,
  rerun: RerunPlan,
  likesAtEnd: boolean,
): Promise<Part> {
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
    const batch = { statements, scores, rerun };
    await continueViewWindow(trx, user.id, window, batch.scores);
    const applied = await applyPush(trx, batch, deps, user, req);
    return { ...applied, window: batch.scores.viewWindows.get(user.id) };
  });
}

type ViewWindow = { start: number; used: number };

/**
 * The views of one push share one watch-time window (server/rewards/view-rules.ts): credited
 * watches are laid end to end from the viewer's previous credited push. A push split into several
 * transactions must keep the window of its first part, or its later parts would start a new window
 * at the first part's commit, with no time elapsed since, and an honest offline session of more
 * than 50 views would lose the rest. It is continued only when nothing else credited this viewer
 * in between (another device's push): then view_credits still ends where this push's window does.
 */
async function continueViewWindow(trx: Transaction<Database>, userId: string, window: ViewWindow | undefined, memo: ScoreMemo): Promise<void> {
  if (!window?.used) return;
  const { rows } = await sql<{ credited_until: number }>`SELECT credited_until FROM view_credits WHERE user_id = ${userId}`.execute(trx);
  // A copy: a retried transaction starts again from the window as the previous part left it.
  if (Number(rows[0]?.credited_until) === window.start + window.used) memo.viewWindows.set(userId, { ...window });
}
