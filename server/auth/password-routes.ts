import { createRoute } from '@hono/zod-openapi';
import { ChangePasswordBody, ForgotPasswordBody, MessageResponse, ResetPasswordBody } from '#sync/rest-api/auth';
import { ErrorSchema } from '#sync/rest-api/errors';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { json } from './auth-routes';
import { requireUser } from './middleware';

// The OpenAPI operations of account recovery under /api/auth. Handlers are in password-router.ts.

const busy = { 503: { description: 'Too many password checks are queued; see Retry-After (code busy).', content: json(ErrorSchema) } };

export const forgotPasswordRoute = createRoute({
  method: 'post',
  path: '/password/forgot',
  tags: ['auth'],
  summary: 'Mail a password reset link',
  description:
    'Answers 202 whether or not the address has an account; when it has, a link to PUBLIC_URL/reset-password?token=… is mailed (single use, 1 hour). Limited per address and per IP.',
  request: { body: { required: true, content: json(ForgotPasswordBody) } },
  responses: {
    202: { description: 'Accepted.', content: json(MessageResponse) },
    ...errorResponses(400, 413, 415, 429),
  },
});

export const resetPasswordRoute = createRoute({
  method: 'post',
  path: '/password/reset',
  tags: ['auth'],
  summary: 'Set a new password with the token of a reset link',
  description: 'Spends the token, sets the password and ends every session of the account (refresh tokens, access tokens, event streams).',
  request: { body: { required: true, content: json(ResetPasswordBody) } },
  responses: {
    200: { description: 'Password updated.', content: json(MessageResponse) },
    ...errorResponses(400, 413, 415),
    ...busy,
  },
});

export const changePasswordRoute = createRoute({
  method: 'post',
  path: '/password/change',
  tags: ['auth'],
  summary: 'Change the signed-in member’s password',
  description: 'Needs the current password (400 wrong_password, counted against the session’s budget: 429 after 5 in 15 minutes). Ends every other session.',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: json(ChangePasswordBody) } },
  responses: {
    200: { description: 'Password updated.', content: json(MessageResponse) },
    ...errorResponses(400, 401, 403, 413, 415, 429),
    ...busy,
  },
});

export const logoutAllRoute = createRoute({
  method: 'post',
  path: '/logout-all',
  tags: ['auth'],
  summary: 'Sign out everywhere: end every session of the caller',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  responses: {
    204: { description: 'Every session ended, this one included.' },
    ...errorResponses(401, 403),
  },
});
