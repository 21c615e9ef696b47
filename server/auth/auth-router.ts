import type { Context } from 'hono';
import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppEnv } from '../context';
import { ApiError, badRequest, errorBody, forbidden } from '../http/errors';
import { createRouter } from '../http/router';
import { authLimitsSource, takeOrRefuse } from '../security/auth-limits';
import { clientIp } from '../security/client-ip';
import { loginRoute, logoutRoute, refreshRoute, resendRoute, signupRoute, verifyRoute } from './auth-routes';
import { consumeVerificationToken, createVerificationToken, sendVerificationMail } from './email-verification';
import { checkLogin } from './login';
import { addPasswordRoutes } from './password-router';
import { revokeFamilyOfToken, rotateRefreshToken, startRefreshFamily } from './refresh-tokens';
import { buildSession, clearRefreshCookie, presentedRefreshToken, setRefreshCookie } from './session-answer';
import { signUp } from './signup';

const RESEND_ACCEPTED = { message: 'If this address belongs to an account that still needs verification, a new link has been sent.' };

/** Refresh may only continue a session of an active, paid-up user; deleted users have no tokens left. */
async function allowRefresh(trx: Transaction<Database>, userId: string): Promise<void> {
  const p = await trx.selectFrom('profiles').select(['is_active', 'account_status']).where('id', '=', userId).executeTakeFirst();
  if (!p || !p.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (p.account_status === 'pending_payment') throw forbidden('Complete the entry fee payment first.', 'payment_required');
}

/** A dead refresh token also clears the cookie, so the browser stops presenting it. */
function refreshRefused(c: Context<AppEnv>, code: string, message: string): ApiError {
  clearRefreshCookie(c);
  return new ApiError(401, code, message);
}

/** /api/auth: sign-up, e-mail verification, login, refresh-token rotation, logout, and account recovery (password-router.ts). */
export function authRouter() {
  const limitsOf = authLimitsSource();
  const app = createRouter();

  app.openapi(signupRoute, async (c) => {
    const { deps } = c.var;
    const body = c.req.valid('json');
    const limits = limitsOf(deps);
    await takeOrRefuse(
      [
        [limits.signupsPerIp, clientIp(c)],
        [limits.signupsPerAddress, body.email],
      ],
      deps.now(),
    );
    return c.json(await signUp(deps, body), 201);
  });

  app.openapi(verifyRoute, async (c) => {
    const { deps } = c.var;
    const { token } = c.req.valid('query');
    const ok = token ? await consumeVerificationToken(deps.db, token, deps.now()) : false;
    return c.redirect(`${deps.config.publicUrl}/login?verified=${ok ? 1 : 0}`, 302);
  });

  app.openapi(resendRoute, async (c) => {
    const { deps } = c.var;
    const { email } = c.req.valid('json');
    const now = deps.now();
    const limits = limitsOf(deps);
    await takeOrRefuse(
      [
        [limits.resendsPerIp, clientIp(c)],
        [limits.resendsPerAddress, email],
      ],
      now,
    );
    const profile = await deps.db.selectFrom('profiles').select(['id', 'name', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
    if (profile && profile.email_verified_at === null) {
      const token = await createVerificationToken(deps.db, profile.id, now);
      await sendVerificationMail(deps, { email, name: profile.name }, token);
    }
    return c.json(RESEND_ACCEPTED, 202);
  });

  app.openapi(loginRoute, async (c) => {
    const { deps } = c.var;
    const outcome = await checkLogin(deps, limitsOf(deps), c.req.valid('json'), clientIp(c), presentedRefreshToken(c, undefined));
    if (!outcome.ok) {
      const body = { ...errorBody('payment_required', 'Complete the entry fee payment to activate your account.'), user_id: outcome.paymentRequired.userId };
      return c.json(body, 403);
    }
    const refresh = await startRefreshFamily(deps.db, outcome.profile.id, deps.now());
    setRefreshCookie(c, refresh.token);
    return c.json(await buildSession(deps, outcome.profile, refresh), 200);
  });

  app.openapi(refreshRoute, async (c) => {
    const { deps } = c.var;
    const presented = presentedRefreshToken(c, c.req.valid('json').refresh_token);
    if (!presented) throw badRequest('refresh_token: Required (in the body or the vidi_refresh cookie).');
    const result = await rotateRefreshToken(deps.db, presented, deps.now(), allowRefresh);
    if (!result.ok) {
      if (result.reason === 'reused')
        throw refreshRefused(c, 'token_reused', 'This session was ended because its refresh token was used twice. Please sign in again.');
      throw refreshRefused(c, 'invalid_refresh_token', 'Your session has expired. Please sign in again.');
    }
    const profile = await deps.db.selectFrom('profiles').selectAll().where('id', '=', result.userId).executeTakeFirstOrThrow();
    setRefreshCookie(c, result.issued.token);
    return c.json(await buildSession(deps, profile, result.issued), 200);
  });

  app.openapi(logoutRoute, async (c) => {
    const { deps } = c.var;
    const presented = presentedRefreshToken(c, c.req.valid('json').refresh_token);
    const ended = presented ? await revokeFamilyOfToken(deps.db, presented, deps.now()) : null;
    if (ended) deps.liveStreams.endSession(ended.userId, ended.familyId);
    clearRefreshCookie(c);
    return c.body(null, 204);
  });

  addPasswordRoutes(app, limitsOf);
  return app;
}
