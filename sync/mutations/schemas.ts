import { z } from 'zod';
import { NameSchema } from '../rest-api/auth';
import { MAX_COMMENT_LENGTH, MAX_WATCHED_MS } from './limits';

export { MAX_COMMENT_LENGTH, MAX_PROFILE_NAME_LENGTH, MAX_WATCHED_MS } from './limits';
export { mutationVideoId } from './video-id';

/** Ids are client-made UUIDs or server ids: short, URL-safe. */
export const IdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id.');

/** Every member mutation and its args, defined once for client and server. */
export const mutationArgsSchemas = {
  like: z.strictObject({ videoId: IdSchema }),
  unlike: z.strictObject({ videoId: IdSchema }),
  addComment: z.strictObject({
    commentId: IdSchema,
    videoId: IdSchema,
    content: z.string().trim().min(1, 'A comment cannot be empty.').max(MAX_COMMENT_LENGTH, `A comment can have at most ${MAX_COMMENT_LENGTH} characters.`),
  }),
  // The same rules as PATCH /api/profile (one schema): a rename cannot slip through sync what the API refuses.
  updateProfileName: z.strictObject({ name: NameSchema }),
  deleteVideo: z.strictObject({ videoId: IdSchema }),
  recordShare: z.strictObject({ shareId: IdSchema, videoId: IdSchema }),
  recordView: z.strictObject({ videoId: IdSchema, watchedMs: z.number().int().min(0).max(MAX_WATCHED_MS) }),
} as const;

export type MutationName = keyof typeof mutationArgsSchemas;
export type MutationArgs<N extends MutationName> = z.output<(typeof mutationArgsSchemas)[N]>;
export const mutationNames = Object.keys(mutationArgsSchemas) as MutationName[];

export function isMutationName(name: string): name is MutationName {
  return Object.prototype.hasOwnProperty.call(mutationArgsSchemas, name);
}

/** A mutation as it travels: name plus (already validated) args. */
export type AnyMutation = { [N in MutationName]: { name: N; args: MutationArgs<N> } }[MutationName];
