import { MutationError } from '../protocol/error-codes';
import { mutationArgsSchemas, type AnyMutation, type MutationName } from './schemas';

// The mutators themselves live zod-free in run-mutator.ts; this module adds the arg validation
// that needs zod. The server imports everything from here.
export { mutators, runMutator, type Mutator, type MutatorTx, type VideoRef } from './run-mutator';

/** Validates raw args against the catalogue: the mutation ready to run, or the refusal. */
export function parseMutation(name: string, args: unknown): { ok: true; mutation: AnyMutation } | { ok: false; error: MutationError } {
  if (!Object.prototype.hasOwnProperty.call(mutationArgsSchemas, name)) {
    return { ok: false, error: new MutationError('unknown_mutation', `Unknown mutation "${name}".`) };
  }
  const schema = mutationArgsSchemas[name as MutationName];
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return { ok: false, error: new MutationError('invalid_args', `${where}${issue?.message ?? 'Invalid arguments.'}`) };
  }
  return { ok: true, mutation: { name, args: parsed.data } as AnyMutation };
}
