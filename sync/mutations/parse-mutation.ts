import type * as z from 'zod';
import { MutationError } from '../protocol/error-codes';
import { argKit } from './arg-kit';
import { isMutationName, mutations, type AnyMutation, type MutationName } from './catalogue';

const schemas = new Map<MutationName, z.ZodType>();

function schemaOf(name: MutationName): z.ZodType {
  let s = schemas.get(name);
  if (!s) {
    s = mutations[name].args(argKit);
    schemas.set(name, s);
  }
  return s;
}

/** Validates raw args against the catalogue: the mutation ready to run, or the refusal. */
export function parseMutation(name: string, args: unknown): { ok: true; mutation: AnyMutation } | { ok: false; error: MutationError } {
  if (!isMutationName(name)) return { ok: false, error: new MutationError('unknown_mutation', `Unknown mutation "${name}".`) };
  const parsed = schemaOf(name).safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return { ok: false, error: new MutationError('invalid_args', `${where}${issue?.message ?? 'Invalid arguments.'}`) };
  }
  return { ok: true, mutation: { name, args: parsed.data } as AnyMutation };
}
