import { createRoute, z } from '@hono/zod-openapi';
import {
  AuthSession,
  LoginBody,
  LogoutBody,
  PaymentRequiredError,
  RefreshBody,
  ResendBody,
  ResendResponse,
  SignupBody,
  SignupResponse,
} from '#sync/rest-api/auth';
import { ErrorSchema } from '#sync/rest-api/errors';
import { errorResponses } from '../http/openapi-helpers';

// The OpenAPI operations of /api/auth (public: no bearer security). Handlers are in auth-router.ts.

export const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

export const signupRoute = createRoute({
  method: 'post',
  path: '/signup',
  tags: ['auth'],
  summary: 'Create an account and send the verification e-mail',
  description:
    "The account starts unverified. When an entry fee applies, it is created with account_status 'pending_payment' and is activated by the payment. " +
    'A taken address gets the same answer, with an id that names no account, and its owner is mailed instead; an unverified account older than 72 h gives its address up.',
  request: { body: { required: true, content: json(SignupBody) } },
  responses: {
    201: { description: 'Accepted; a verification e-mail (or, for a taken address, a notice to its owner) was sent.', content: json(SignupResponse) },
    ...errorResponses(400, 413, 415, 429),
    503: { description: 'Too many password hashes are queued; see Retry-After (code busy).', content: json(ErrorSchema) },
  },
});

export const verifyRoute = createRoute({
  method: 'get',
  path: '/verify',
  tags: ['auth'],
  summary: 'Confirm an e-mail address (the link in the verification e-mail)',
  request: { query: z.object({ token: z.string().max(512).optional() }) },
  responses: {
    302: { description: 'Redirects to /login?verified=1, or /login?verified=0 for an unknown, used or expired token.' },
    ...errorResponses(400),
  },
});

export const resendRoute = createRoute({
  method: 'post',
  path: '/resend-verification',
  tags: ['auth'],
  summary: 'Send a new verification e-mail',
  description: 'Always answers the same, whether or not the address belongs to an unverified account.',
  request: { body: { required: true, content: json(ResendBody) } },
  responses: {
    202: { description: 'Accepted.', content: json(ResendResponse) },
    ...errorResponses(400, 413, 415, 429),
  },
});

export const loginRoute = createRoute({
  method: 'post',
  path: '/login',
  tags: ['auth'],
  summary: 'Sign in with e-mail and password',
  description: 'Also sets the refresh token as the HttpOnly cookie vidi_refresh (Path=/api/auth).',
  request: { body: { required: true, content: json(LoginBody) } },
  responses: {
    200: { description: 'The auth session.', content: json(AuthSession) },
    ...errorResponses(400, 401, 413, 415, 429),
    503: { description: 'Too many password checks are queued; see Retry-After (code busy).', content: json(ErrorSchema) },
    403: {
      description: "Right password, but the account is suspended, unverified, or owes the entry fee ('payment_required' carries user_id).",
      content: json(z.union([PaymentRequiredError, ErrorSchema])),
    },
  },
});

export const refreshRoute = createRoute({
  method: 'post',
  path: '/refresh',
  tags: ['auth'],
  summary: 'Exchange a refresh token (body or cookie) for a new auth session',
  description: 'The presented token is spent; presenting it again later than 10 s after revokes the whole session family.',
  request: { body: { required: false, content: json(RefreshBody) } },
  responses: {
    200: { description: 'A new auth session.', content: json(AuthSession) },
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

export const logoutRoute = createRoute({
  method: 'post',
  path: '/logout',
  tags: ['auth'],
  summary: 'Revoke the session family of the refresh token (body or cookie), close its event streams and clear the cookie',
  request: { body: { required: false, content: json(LogoutBody) } },
  responses: {
    204: { description: 'Signed out (also when the token was unknown).' },
    ...errorResponses(400, 413, 415),
  },
});
