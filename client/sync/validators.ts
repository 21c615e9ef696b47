// Everything on the client that needs zod, in one module that is loaded with import() (see
// load-validators.ts): zod stays off the first screen's critical path, and validation stays the
// same shared schemas the server uses.
import * as z from 'zod';

// zod compiles parsers with new Function() when it may, and finds out by trying once; the page's
// Content-Security-Policy (no 'unsafe-eval') refuses, which browsers report as a policy violation.
// Without eval the interpreted parsers are what runs anyway: say so, and skip the probe.
z.config({ jitless: true });

export { FeedPageSchema, PokeMessageSchema, PullResponseSchema, PushResponseSchema } from '#sync/protocol/messages';
export { parseMutation } from '#sync/mutations/parse-mutation';
