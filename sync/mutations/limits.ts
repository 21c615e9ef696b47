// Plain numbers, apart from the zod schemas that enforce them, so the client can use them
// without loading zod on its first screen.
export const MAX_COMMENT_LENGTH = 1000;
export const MAX_PROFILE_NAME_LENGTH = 80;
/** A view longer than a day is a client bug; refusing it keeps counters sane. */
export const MAX_WATCHED_MS = 24 * 60 * 60 * 1000;
