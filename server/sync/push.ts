import type { ControlledTransaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import type { MutationResult, PushMutation, PushRequest, PushResponse } from '#sync/protocol/messages';
import { MutationError } from '#sync/protocol/error-codes';
import { parseMutation } from '#sync/mutations/parse-mutation';
import { Changes } from '../changes/changes';
import { publishChanges } from '../changes/write-tx';
import { ServerMutationTx, type PushBatch } from './mutations/server-tables';
import { runServerMutation } from './mutations/run-server-mutation';

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

/** What one push did inside a group's transaction; its effects run once the transaction committed. */
export interface AppliedPush {
  response: PushResponse;
  /** Who pushed, and what the applied mutations changed (their rows already written). */
  userId: string;
  changes: Changes;
}

/**
 * One push inside the group's open transaction (the caller wraps it in a savepoint of its own).
 * The group holds the database connection for the whole push, so the client's last_mutation_id
 * read here cannot move under it: it is tracked in memory and written once, with the mutations,
 * before the push's savepoint is released.
 */
export async function applyPush(trx: ControlledTransaction<Database>, batch: PushBatch, deps: AppDeps, user: AuthUser, req: PushRequest): Promise<AppliedPush> {
  const { mutations } = req;
  const s = batch.statements;
  const client = s.client.get(req.client_id);
  if (client && client.user_id !== user.id) throw clientIdTaken();
  const before = client?.last_mutation_id ?? 0;
  let last = before;
  const firstNew = mutations.find((m) => m.id > last);
  if (firstNew && firstNew.id !== last + 1) throw new MutationIdGapError(last, firstNew.id);

  const results: MutationResult[] = [];
  const changes = new Changes(deps.now());
  // One table API for the push; each mutation gets its own context (time, changes) in applyOne.
  const tx = new ServerMutationTx({ trx, user, now: changes.now, clientTime: undefined, batch, changes, mediaDir: deps.config.mediaDir });
  for (const m of mutations) {
    if (m.id <= last) {
      results.push({ id: m.id, status: 'duplicate' });
      continue;
    }
    try {
      const outcome = await applyOne(tx, deps, m);
      results.push(outcome.result);
      if (outcome.changes) changes.absorb(outcome.changes);
    } catch (err) {
      // A fault that is not the caller's (the database, a bug): stop here. What is before it is
      // committed and reported; the rest stays queued on the client and is retried.
      if (results.length === 0) throw err;
      deps.log.error(`sync push stopped at mutation ${m.id} (${m.name})`, err);
      break;
    }
    // Applied or refused for good, the id moves on (the client's queue never sticks on a refusal).
    last = m.id;
  }
  if (last !== before) {
    if (client) s.moveClient.run(last, deps.now(), req.client_id);
    else s.insertClient.run(req.client_id, user.id, last, deps.now());
  }
  return { response: { results, last_mutation_id: last }, userId: user.id, changes };
}

/** One mutation in a savepoint: applied, or refused for good with its writes (if any) rolled back. */
async function applyOne(tx: ServerMutationTx, deps: AppDeps, m: PushMutation): Promise<{ result: MutationResult; changes?: Changes }> {
  const { id } = m;
  const parsed = parseMutation(m.name, m.args);
  if (!parsed.ok) return { result: rejected(id, parsed.error) };
  const s = tx.ctx.batch.statements;
  s.savepoint.run();
  try {
    const changes = new Changes(deps.now());
    tx.ctx = { ...tx.ctx, now: changes.now, clientTime: m.client_time, changes };
    await runServerMutation(tx, parsed.mutation);
    // Written inside the savepoint: a mutation refused after this point takes its change rows with it.
    await changes.flush(s.logChanges);
    s.release.run();
    return { result: { id, status: 'applied' }, changes };
  } catch (err) {
    s.rollbackTo.run();
    s.release.run();
    if (!(err instanceof MutationError)) throw err;
    return { result: rejected(id, err) };
  }
}

const rejected = (id: number, e: MutationError): MutationResult => ({ id, status: 'rejected', error: { code: e.code, message: e.message } });

/** Once the push's transaction committed: one poke for what it changed, then its tasks (file removals). */
export function afterCommit(deps: AppDeps, applied: AppliedPush): Promise<void> {
  return publishChanges(deps, applied.changes, applied.userId);
}
