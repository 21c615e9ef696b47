// Zod-free (only types come from zod): the client replays queued mutations before zod is loaded.
import type * as z from 'zod';
import { addComment } from './add-comment';
import { block, unblock } from './block';
import { deleteComment } from './delete-comment';
import { deleteVideo } from './delete-video';
import { editVideo } from './edit-video';
import { follow, unfollow } from './follow';
import type { MutationDef } from './define-mutation';
import { like, unlike } from './like';
import { likeComment, unlikeComment } from './like-comment';
import { markNotificationsRead } from './mark-notifications-read';
import type { MutationTx } from './mutation-tx';
import { mute, unmute } from './mute';
import { pinComment, unpinComment } from './pin-comment';
import { recordShare } from './record-share';
import { recordView } from './record-view';
import { report } from './report';
import { setHandle } from './set-handle';
import { updateProfileName } from './update-profile-name';

/** Every member mutation. Adding one: its module beside this file and one line here. */
export const mutations = {
  like,
  unlike,
  addComment,
  updateProfileName,
  deleteVideo,
  editVideo,
  recordShare,
  recordView,
  markNotificationsRead,
  setHandle,
  follow,
  unfollow,
  deleteComment,
  likeComment,
  unlikeComment,
  pinComment,
  unpinComment,
  block,
  unblock,
  mute,
  unmute,
  report,
} as const;

type Catalogue = typeof mutations;
export type MutationName = keyof Catalogue;
export type MutationArgs<N extends MutationName> = z.output<ReturnType<Catalogue[N]['args']>>;
export type MutationOutcome<N extends MutationName> = Awaited<ReturnType<Catalogue[N]['run']>>;
/** A mutation as it travels: name plus (already validated) args. */
export type AnyMutation = { [N in MutationName]: { name: N; args: MutationArgs<N> } }[MutationName];
export const mutationNames = Object.keys(mutations) as MutationName[];

export function isMutationName(name: string): name is MutationName {
  return Object.prototype.hasOwnProperty.call(mutations, name);
}

/** The definition of a (possibly stored) mutation name, or undefined for a name this version does not know. */
export function mutationDef(name: string): MutationDef<string, z.ZodType, unknown> | undefined {
  return isMutationName(name) ? (mutations[name] as unknown as MutationDef<string, z.ZodType, unknown>) : undefined;
}

/** Runs a mutation's shared logic; what it returns is what the server's effects build on. */
export function runMutation<N extends MutationName>(tx: MutationTx, mutation: { name: N; args: MutationArgs<N> }): Promise<MutationOutcome<N>> {
  const def = mutations[mutation.name] as unknown as MutationDef<N, z.ZodType, MutationOutcome<N>>;
  return def.run(tx, mutation.args);
}
