import { MutationError } from '../protocol/error-codes';
import { HANDLE_TAKEN_MESSAGE, handleProblem, normalizeHandle } from '../protocol/handles';
import { defineMutation } from './define-mutation';

/**
 * The member's handle (/@handle). What was typed is normalized here, so "@Asha" and "asha" are one
 * handle; the rules refuse with `invalid` and their own sentence. Another member's handle is
 * `handle_taken`: the check below, and on the server also the unique index when two members race
 * for one (server/sync/mutations/people-rules.ts). The device only holds its own profile, so there
 * the check finds nothing and the server decides.
 */
export const setHandle = defineMutation({
  name: 'setHandle',
  args: (k) => k.z.strictObject({ handle: k.handle }),
  refusedTitle: 'Handle not saved',
  pendingOnCard: false,
  changesProfile: true,
  sample: ({ id }) => ({
    handle: `h_${id('handle')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(-20)}`,
  }),
  run: async (tx, args) => {
    const handle = normalizeHandle(args.handle);
    const problem = handleProblem(handle);
    if (problem) throw new MutationError('invalid', problem);
    const me = await tx.profiles.get({ id: tx.userId });
    if (me?.handle === handle) return null;
    if (await tx.profiles.exists({ handle })) throw new MutationError('handle_taken', HANDLE_TAKEN_MESSAGE);
    await tx.profiles.update({ id: tx.userId }, { handle });
    return { handle };
  },
});
