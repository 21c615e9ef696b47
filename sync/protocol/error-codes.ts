/**
 * Error codes of the sync protocol, shared by server and client. A per-mutation rejection carries
 * one of the mutation codes; a whole request refused with a 4xx carries one of the request codes.
 */
export const MutationErrorCode = {
  /** The args failed the mutation's schema (e.g. an empty comment). */
  invalidArgs: 'invalid_args',
  /** No mutation of that name exists (an old or newer client). */
  unknownMutation: 'unknown_mutation',
  /** The target (video) no longer exists. */
  notFound: 'not_found',
  /** The video is another member's and not playable yet (processing or failed): nobody else can see it. */
  notReady: 'not_ready',
  /** The caller may not do this (e.g. delete someone else's video). */
  forbidden: 'forbidden',
  /** An id chosen by the client is already used by a different row. */
  conflict: 'conflict',
  /** The args parse but break a rule the message names (a handle's rules, following oneself). */
  invalid: 'invalid',
  /** Another member holds that handle (sync/mutations/set-handle.ts). */
  handleTaken: 'handle_taken',
  /** A per-member limit is reached (following: MAX_FOLLOWING in sync/protocol/limits.ts). */
  limit: 'limit',
  /** The comment a reply answers was deleted meanwhile (sync/mutations/add-comment.ts): the app puts the text back. */
  parentDeleted: 'parent_deleted',
  /** Either member blocked the other (docs/decisions/0024-safety.md): the action is dropped without a toast. */
  blocked: 'blocked',
} as const;
export type MutationErrorCode = (typeof MutationErrorCode)[keyof typeof MutationErrorCode];

export const SyncRequestErrorCode = {
  /** The first new mutation id is not last_mutation_id + 1 (409; body carries last_mutation_id). */
  mutationIdGap: 'mutation_id_gap',
  /** The client id is registered to another user (403): the client must pick a new client id. */
  clientIdTaken: 'client_id_taken',
  /** Mutation ids in one batch must be consecutive and increasing (400). */
  invalidBatch: 'invalid_batch',
  /** More than MAX_PUSH_BATCH mutations in one push (400). */
  batchTooLarge: 'batch_too_large',
} as const;
export type SyncRequestErrorCode = (typeof SyncRequestErrorCode)[keyof typeof SyncRequestErrorCode];

/** Thrown by a mutator for a permanent refusal: the server answers 'rejected' with this reason. */
export class MutationError extends Error {
  constructor(
    readonly code: MutationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MutationError';
  }
}
