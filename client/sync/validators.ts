// Everything on the client that needs zod, in one module that is loaded with import() (see
// load-validators.ts): zod stays off the first screen's critical path, and validation stays the
// same shared schemas the server uses.
import './zod-jitless';

export { CommentsPageSchema, FeedPageSchema, PokeMessageSchema, PullResponseSchema, PushResponseSchema } from '#sync/protocol/messages';
export { parseMutation } from '#sync/mutations/parse-mutation';
