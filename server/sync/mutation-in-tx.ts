import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AnyMutation } from '#sync/mutations/catalogue';
import type { AppDeps, AuthUser } from '../context';
import type { Changes } from '../changes/changes';
import { flushScores } from '../rewards/score-events';
import { newPushBatch } from './push';
import { runServerMutation } from './mutations/effects';
import { serverMutationTx } from './mutations/server-tables';

/**
 * One mutation run by the server for `user` inside a transaction it already holds, as a push of it
 * would run it (its checks, the shared logic, its server-only effects, its deferred writes): the
 * admin's removal of a reported comment is deleteComment by an admin (server/admin/reports-routes.ts,
 * which receives it from server/app.ts: server/admin sits below this folder). Refused: MutationError.
 */
export async function runMutationInTx(
  deps: Pick<AppDeps, 'engine' | 'media'>,
  trx: Transaction<Database>,
  changes: Changes,
  user: AuthUser,
  mutation: AnyMutation,
): Promise<void> {
  const batch = newPushBatch(deps.engine, trx);
  const tx = serverMutationTx({ trx, user, now: changes.now, clientTime: undefined, batch, changes, media: deps.media });
  await runServerMutation(tx, mutation);
  await batch.statements.flushCounters();
  await flushScores(trx, batch.scores);
}

export type MutationInTx = typeof runMutationInTx;
