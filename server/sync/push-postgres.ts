import { lockMember, lockScoringShared } from '#db/locks';
import type { MutationResult, PushRequest, PushResponse } from '#sync/protocol/messages';
import type { AppDeps, AuthUser } from '../context';
import { afterCommit, applyPush, newPushBatch, type AppliedPush } from './push';
import { retryTransactionConflicts } from './conflict-retry';
import { lockPushRows } from './push-statements-postgres';
import { mutationVideoId } from '#sync/mutations/video-id';

/**
 * Mutations per transaction. Each mutation is a savepoint (a subtransaction), and PostgreSQL keeps
 * the ids of 64 subtransactions per backend in shared memory; past that, every other session's
 * visibility checks fall back to pg_subtrans (the "subtransaction overflow" slowdown). 50 leaves room.
 */
export const MUTATIONS_PER_TRANSACTION = 50;

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
  do {
    const part: PushRequest = { client_id: req.client_id, mutations: req.mutations.slice(from, from + MUTATIONS_PER_TRANSACTION) };
    let applied: AppliedPush;
    try {
      applied = await retryTransactionConflicts(() => pushTransaction(deps, user, part));
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

/**
 * One transaction of a push. Its locks are taken in one order by every push (the member, scoring,
 * the videos and scores rows it will write, the client's row, the change log last, at its end), so
 * pushes queue rather than deadlock among themselves; a deadlock with another kind of write (or on
 * a scores row two pushes create at once) is retried.
 */
function pushTransaction(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<AppliedPush> {
  return deps.db.transaction().execute(async (trx) => {
    // A member's pushes one at a time (their view windows, daily counts, first share, comment
    // pairs are read, then written), from any device or client id.
    await lockMember(trx, user.id);
    // The period, eligibility and the cap read by the scoring stay put until the commit.
    await lockScoringShared(trx);
    const videoIds = new Set(req.mutations.map(mutationVideoId).filter((id): id is string => id !== undefined));
    await lockPushRows(trx, user.id, [...videoIds]);
    return applyPush(trx, newPushBatch(deps.engine, trx), deps, user, req);
  });
}
