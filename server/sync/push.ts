import type { ControlledTransaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { deleteMediaFiles } from '../media/storage';
import type { MutationResult, PushMutation, PushRequest, PushResponse } from '../../sync/protocol/messages';
import { MutationError } from '../../sync/protocol/error-codes';
import { parseMutation, runMutator } from '../../sync/mutations/mutators';
import { ServerMutatorTx, type PushBatch } from './mutators/server-tx';
import type { PushStatements } from './push-statements';

/** 409 for a gapped mutation id: carries the server's last_mutation_id so the client can renumber. */
export class MutationIdGapError extends ApiError {
  constructor(readonly lastMutationId: number, got: number) {
    super(409, 'mutation_id_gap', `Expected mutation id ${lastMutationId + 1}, got ${got}.`);
  }
}

const clientIdTaken = () => new ApiError(403, 'client_id_taken', 'This client id belongs to another user; start a new client id.');

type Outcome = { kind: 'done'; result: MutationResult; tx?: ServerMutatorTx } | { kind: 'gap'; last: number };

/** What one push did inside a group's transaction; its effects run once the transaction committed. */
export interface AppliedPush {
  response: PushResponse;
  applied: ServerMutatorTx[];
}

/** One push inside the group's open transaction (the caller wraps it in a savepoint of its own). */
export async function applyPush(trx: ControlledTransaction<Database>, batch: PushBatch, deps: AppDeps, user: AuthUser, req: PushRequest): Promise<AppliedPush> {
  const { mutations } = req;
  const client = batch.statements.client.get(req.client_id);
  if (client && client.user_id !== user.id) throw clientIdTaken();
  let last = client?.last_mutation_id ?? 0;
  const firstNew = mutations.find((m) => m.id > last);
  if (firstNew && firstNew.id !== last + 1) throw new MutationIdGapError(last, firstNew.id);

  const results: MutationResult[] = [];
  const applied: ServerMutatorTx[] = [];
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
  return { response: { results, last_mutation_id: last }, applied };
}

async function applyOne(trx: ControlledTransaction<Database>, batch: PushBatch, deps: AppDeps, user: AuthUser, clientId: string, m: PushMutation): Promise<Outcome> {
  const { id } = m;
  const parsed = parseMutation(m.name, m.args);
  let refusal: MutationError | null = parsed.ok ? null : parsed.error;
  if (parsed.ok) {
    const s = batch.statements;
    s.savepoint.run();
    try {
      const cur = claimId(s, user, clientId, id, deps.now());
      const tx = cur === null ? new ServerMutatorTx(trx, user, deps.now(), m.client_time, batch) : null;
      if (tx) await runMutator(tx, parsed.mutation);
      s.release.run();
      return cur ?? { kind: 'done', result: { id, status: 'applied' }, tx: tx! };
    } catch (err) {
      s.rollbackTo.run();
      s.release.run();
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

export async function afterCommit(deps: AppDeps, tx: ServerMutatorTx): Promise<void> {
  deps.pokes.notify([...tx.pokeScopes], tx.userId);
  if (tx.deletedFileKeys.length) {
    try {
      await deleteMediaFiles(deps.config.mediaDir, tx.deletedFileKeys);
    } catch (err) {
      deps.log.error('could not remove media files of a deleted video', err);
    }
  }
}
