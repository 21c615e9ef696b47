import type { ControlledTransaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { deleteMediaFiles } from '../media/storage';
import { MAX_PUSH_BATCH, type MutationResult, type PushMutation, type PushRequest, type PushResponse } from '../../sync/protocol/messages';
import { MutationError } from '../../sync/protocol/error-codes';
import { parseMutation, runMutator } from '../../sync/mutations/mutators';
import { newScoreMemo } from '../rewards/score-events';
import { ServerMutatorTx, type PushBatch } from './mutators/server-tx';
import { pushStatements, type PushStatements } from './push-statements';

/** 409 for a gapped mutation id: carries the server's last_mutation_id so the client can renumber. */
export class MutationIdGapError extends ApiError {
  constructor(readonly lastMutationId: number, got: number) {
    super(409, 'mutation_id_gap', `Expected mutation id ${lastMutationId + 1}, got ${got}.`);
  }
}

const clientIdTaken = () => new ApiError(403, 'client_id_taken', 'This client id belongs to another user; start a new client id.');

type Outcome = { kind: 'done'; result: MutationResult; tx?: ServerMutatorTx } | { kind: 'gap'; last: number };

/**
 * Applies a push batch. Each mutation runs in its own savepoint (inside one transaction per batch)
 * that also moves the client's last_mutation_id, so a mutation is applied and acknowledged together or not at all; a replay of
 * an acknowledged id is a 'duplicate' without effect, and a permanent refusal is 'rejected' and
 * still advances the id (the client's queue never sticks on it).
 */
export async function processPush(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<PushResponse> {
  const { mutations } = req;
  if (mutations.length > MAX_PUSH_BATCH) {
    throw new ApiError(400, 'batch_too_large', `A push carries at most ${MAX_PUSH_BATCH} mutations; got ${mutations.length}.`);
  }
  for (let i = 1; i < mutations.length; i++) {
    if (mutations[i]!.id !== mutations[i - 1]!.id + 1) {
      throw new ApiError(400, 'invalid_batch', 'Mutation ids in a push must be consecutive and increasing.');
    }
  }

  const client = await deps.db.selectFrom('sync_clients').select(['user_id', 'last_mutation_id']).where('client_id', '=', req.client_id).executeTakeFirst();
  if (client && client.user_id !== user.id) throw clientIdTaken();
  let last = client?.last_mutation_id ?? 0;
  const firstNew = mutations.find((m) => m.id > last);
  if (firstNew && firstNew.id !== last + 1) throw new MutationIdGapError(last, firstNew.id);

  // One write transaction (one fsync) for the whole batch, one savepoint per mutation: a mutation is
  // still applied and acknowledged together or not at all, but a batch of 100 costs 1 commit, not 100.
  const results: MutationResult[] = [];
  const applied: ServerMutatorTx[] = [];
  const trx = await deps.db.startTransaction().execute();
  const batch: PushBatch = { statements: pushStatements(deps.sqlite), scores: newScoreMemo() };
  try {
    for (const m of mutations) {
      if (m.id <= last) {
        results.push({ id: m.id, status: 'duplicate' });
        continue;
      }
      let outcome: Outcome;
      try {
        outcome = await applyOne(trx, batch, deps, user, req.client_id, m);
      } catch (err) {
        // A fault that is not the caller's (the database, a bug): stop here. What is before it is
        // committed and reported; the rest stays queued on the client and is retried.
        if (results.length === 0) throw err;
        deps.log.error(`sync push stopped at mutation ${m.id} (${m.name})`, err);
        break;
      }
      if (outcome.kind === 'gap') {
        // Another push of the same client moved the id meanwhile: report what we did; the client retries.
        last = outcome.last;
        break;
      }
      results.push(outcome.result);
      last = m.id;
      if (outcome.tx) applied.push(outcome.tx);
    }
    await trx.commit().execute();
  } catch (err) {
    await trx.rollback().execute();
    throw err;
  }
  for (const tx of applied) await afterCommit(deps, tx);
  return { results, last_mutation_id: last };
}

async function applyOne(trx: ControlledTransaction<Database>, batch: PushBatch, deps: AppDeps, user: AuthUser, clientId: string, m: PushMutation): Promise<Outcome> {
  const { id } = m;
  const parsed = parseMutation(m.name, m.args);
  let refusal: MutationError | null = parsed.ok ? null : parsed.error;
  if (parsed.ok) {
    const sp = await trx.savepoint('mutation').execute();
    try {
      const cur = claimId(batch.statements, user, clientId, id, deps.now());
      const tx = cur === null ? new ServerMutatorTx(sp, user, deps.now(), m.client_time, batch) : null;
      if (tx) await runMutator(tx, parsed.mutation);
      await sp.releaseSavepoint('mutation').execute();
      return cur ?? { kind: 'done', result: { id, status: 'applied' }, tx: tx! };
    } catch (err) {
      await sp.rollbackToSavepoint('mutation').execute();
      await sp.releaseSavepoint('mutation').execute();
      if (!(err instanceof MutationError)) throw err;
      refusal = err;
    }
  }
  // Refused for good: its writes (if any) rolled back to the savepoint; only the id moves on.
  const r = refusal!;
  const cur = claimId(batch.statements, user, clientId, id, deps.now());
  if (cur !== null) return cur;
  return { kind: 'done', result: { id, status: 'rejected', error: { code: r.code, message: r.message } } };
}

/**
 * Moves the client's last_mutation_id to `id` inside the transaction, or says why it cannot
 * (already applied, or a gap). Returns null when the id was claimed.
 */
function claimId(s: PushStatements, user: AuthUser, clientId: string, id: number, now: number): Outcome | null {
  const row = s.client.get(clientId);
  if (row && row.user_id !== user.id) throw clientIdTaken();
  const cur = row?.last_mutation_id ?? 0;
  if (id <= cur) return { kind: 'done', result: { id, status: 'duplicate' } };
  if (id !== cur + 1) return { kind: 'gap', last: cur };
  if (row) s.moveClient.run(id, now, clientId);
  else s.insertClient.run(clientId, user.id, id, now);
  return null;
}

async function afterCommit(deps: AppDeps, tx: ServerMutatorTx): Promise<void> {
  deps.pokes.notify([...tx.pokeScopes]);
  if (tx.deletedFileKeys.length) {
    try {
      await deleteMediaFiles(deps.config.mediaDir, tx.deletedFileKeys);
    } catch (err) {
      deps.log.error('could not remove media files of a deleted video', err);
    }
  }
}
