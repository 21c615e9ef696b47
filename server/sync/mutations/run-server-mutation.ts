import { runMutation, type AnyMutation } from '#sync/mutations/catalogue';
import type { MutationName } from '#sync/mutations/catalogue';
import { runMutationEffects } from './effects';
import type { ServerMutationTx } from './server-tables';

/** A mutation on the server: the shared logic over the authoritative tables (`tx.ctx` is this mutation's), then its server-only effects. */
export async function runServerMutation(tx: ServerMutationTx, mutation: AnyMutation): Promise<void> {
  const outcome = await runMutation(tx, mutation);
  await runMutationEffects(tx.ctx, mutation.name as MutationName, mutation.args as never, outcome as never);
}
