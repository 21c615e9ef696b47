import type { Transaction } from 'kysely';
import { flushLikeNotifications } from '../notifications/create';
import type { Database } from '#db/schema';
import type { Engine } from '#db/engine';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import type { MutationResult, PushMutation, PushRequest, PushResponse } from '#sync/protocol/messages';
import { MutationError } from '#sync/protocol/error-codes';
import { parseMutation } from '#sync/mutations/parse-mutation';
import { Changes } from '../changes/changes';
import { publishChanges } from '../changes/write-tx';
import { clearPendingScores, dropStaged, flushScores, keepStaged, newScoreMemo, stageScores } from '../rewards/score-events';
import { serverMutationTx, type ServerMutationTx } from './mutations/server-tables';
import type { PushBatch } from './mutations/context';
import { runServerMutation } from './mutations/effects';
import { sqlitePushStatements } from './push-statements';
import { postgresPushStatements } from './push-statements-postgres';
import { isTransactionConflict } from '../changes/conflict-retry';

/** 409 for a gapped mutation id: carries the server's last_mutation_id so the client can renumber. */
export class MutationIdGapError extends ApiError {
  constructor(
    readonly lastMutationId: number,
    got: number,
  ) {
    super(409, 'mutation_id_gap', `Expected mutation id ${lastMutationId + 1}, got ${got}.`);
  }
}

const clientIdTaken = () => new ApiError(403, 'client_id_taken', 'This client id belongs to another user; start a new client id.');

/** What one push did inside its transaction; its effects run once the transaction committed. */
export interface AppliedPush {
  response: PushResponse;
  /** Who pushed, and what the applied mutations changed (their rows already written). */
  userId: string;
  changes: Changes;
}

/** The hot statements and score facts of one push transaction, in the engine's form. */
export function newPushBatch(engine: Engine, trx: Transaction<Database>): PushBatch {
  return { statements: engine.dialect === 'sqlite' ? sqlitePushStatements(engine.sqlite) : postgresPushStatements(trx), scores: newScoreMemo() };
}

/**
 * One push inside an open transaction (on SQLite the group's, in a savepoint of its own; on
 * PostgreSQL its own, push-postgres.ts). The client's last_mutation_id cannot move under it: on
 * SQLite the group holds the only connection, on PostgreSQL client() locks the client's row to the
 * commit. It is tracked in memory and written once, with the mutations. The change-log rows of all
 * applied mutations are written last (writeChangeLog's lock, held to the commit, is taken then).
 */
export async function applyPush(trx: Transaction<Database>, batch: PushBatch, deps: AppDeps, user: AuthUser, req: PushRequest): Promise<AppliedPush> {
  const s = batch.statements;
  const client = await s.client(req.client_id, user.id, deps.now());
  if (client && client.user_id !== user.id) throw clientIdTaken();
  const before = client?.last_mutation_id ?? 0;
  const firstNew = req.mutations.find((m) => m.id > before);
  if (firstNew && firstNew.id !== before + 1) throw new MutationIdGapError(before, firstNew.id);

  const changes = new Changes(deps.now());
  // Read again for each push, and nothing buffered kept: on SQLite the batch outlives a push that was rolled back.
  batch.safety = undefined;
  batch.likeNotes?.clear();
  clearPendingScores(batch.scores);
  // One table API for the push; each mutation gets its own context (time, changes) in applyOne.
  const tx = serverMutationTx({ trx, user, now: changes.now, clientTime: undefined, batch, changes, media: deps.media });
  const { results, last } = await applyMutations(tx, deps, req.mutations, before, changes);
  // PostgreSQL's deferred writes, in the lock order of every push: the videos' counters, then scores.
  await s.flushCounters();
  await flushScores(trx, batch.scores);
  await flushLikeNotifications(trx, changes, batch.likeNotes);
  if (last !== before) await s.saveClient(req.client_id, user.id, last, deps.now(), client !== undefined);
  await changes.flush(s.logChanges);
  return { response: { results, last_mutation_id: last }, userId: user.id, changes };
}

/** Thrown out of the transaction (rolling it back) to run it again under a changed plan. */
export class RerunPush extends Error {
  constructor(
    readonly mutationId: number,
    readonly refusal?: MutationResult,
  ) {
    super(`push rerun at mutation ${mutationId}`);
  }
}

/** The mutations in order, each applied or refused for good; stops early on a fault that is not the caller's. */
async function applyMutations(tx: ServerMutationTx, deps: AppDeps, mutations: PushMutation[], before: number, changes: Changes) {
  const results: MutationResult[] = [];
  const plan = tx.ctx.batch.rerun;
  let last = before;
  for (const m of mutations) {
    if (plan?.stopAt !== undefined && m.id >= plan.stopAt) break;
    const settled = m.id <= last ? { id: m.id, status: 'duplicate' as const } : plan?.refused.get(m.id);
    if (settled) {
      results.push(settled);
      last = Math.max(last, m.id);
      continue;
    }
    try {
      const outcome = await applyOne(tx, deps, m);
      results.push(outcome.result);
      // Its change rows wait in memory for the push's end; a refused mutation has none.
      if (outcome.changes) changes.absorb(outcome.changes);
    } catch (err) {
      // A fault that is not the caller's (the database, a bug): stop here. What is before it is
      // committed and reported; the rest stays queued on the client and is retried. A lost
      // deadlock is not such a fault: the whole transaction runs again (conflict-retry.ts).
      if (results.length === 0 || isTransactionConflict(err) || err instanceof RerunPush) throw err;
      deps.log.error(`sync push stopped at mutation ${m.id} (${m.name})`, err);
      // Without savepoints the transaction may be aborted: run it again up to here.
      if (plan) throw new RerunPush(m.id);
      break;
    }
    // Applied or refused for good, the id moves on (the client's queue never sticks on a refusal).
    last = m.id;
  }
  return { results, last };
}

/** One mutation: applied, or refused for good with its writes (if any) rolled back (a savepoint, or a rerun). */
async function applyOne(tx: ServerMutationTx, deps: AppDeps, m: PushMutation): Promise<{ result: MutationResult; changes?: Changes }> {
  const { id } = m;
  const parsed = parseMutation(m.name, m.args);
  if (!parsed.ok) return { result: rejected(id, parsed.error) };
  const run = async () => {
    const changes = new Changes(deps.now());
    tx.ctx = { ...tx.ctx, now: changes.now, clientTime: m.client_time, changes };
    await runServerMutation(tx, parsed.mutation);
    return { result: { id, status: 'applied' as const }, changes };
  };
  if (tx.ctx.batch.rerun) {
    try {
      return await run();
    } catch (err) {
      throw err instanceof MutationError ? new RerunPush(id, rejected(id, err)) : err;
    }
  }
  const { statements: s, scores } = tx.ctx.batch;
  await s.savepoint();
  // Its points join the push's buffer only if it is kept (score-events.ts, ScoreMemo.staged).
  stageScores(scores);
  try {
    const applied = await run();
    await s.release();
    keepStaged(scores);
    return applied;
  } catch (err) {
    await s.rollbackTo();
    await s.release();
    dropStaged(scores);
    if (!(err instanceof MutationError)) throw err;
    return { result: rejected(id, err) };
  }
}

const rejected = (id: number, e: MutationError): MutationResult => ({ id, status: 'rejected', error: { code: e.code, message: e.message } });

/** Once the push's transaction committed: one poke for what it changed, then its tasks (file removals). */
export function afterCommit(deps: AppDeps, applied: AppliedPush): Promise<void> {
  return publishChanges(deps, applied.changes, applied.userId);
}
