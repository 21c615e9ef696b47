import { runMutation, type AnyMutation } from '#sync/mutations/catalogue';
import type { MutationName } from '#sync/mutations/catalogue';
import { runMutationEffects } from './effects';
import { ServerMutationTx, type ServerMutationContext } from './server-tables';

/** A mutation on the server: the shared logic over the authoritative tables, then its server-only effects. */
export async function runServerMutation(ctx: ServerMutationContext, mutation: AnyMutation): Promise<void> {
  const outcome = await runMutation(new ServerMutationTx(ctx), mutation);
  await runMutationEffects(ctx, mutation.name as MutationName, mutation.args as never, outcome as never);
}
