import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../http/errors';
import { reservePasswordAttempt, takeOrRefuse, type AuthLimits } from '../security/auth-limits';
import { clientIp } from '../security/client-ip';
import { checkedUnder } from './login';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import { mailResetLink, resetPassword, setPassword } from './password-reset';
import { changePasswordRoute, forgotPasswordRoute, logoutAllRoute, resetPasswordRoute } from './password-routes';
import { revokeAllRefreshTokens } from './refresh-tokens';
import { clearRefreshCookie } from './session-answer';

const FORGOT_ACCEPTED = { message: 'If an account uses this address, we have sent it a link to reset the password.' };
const PASSWORD_UPDATED = { message: 'Password updated' };

/** Account recovery on /api/auth: forgot, reset, change, logout everywhere. Shares the login limits. */
export function addPasswordRoutes(app: OpenAPIHono<AppEnv>, limitsOf: (deps: AppDeps) => AuthLimits): void {
  app.openapi(forgotPasswordRoute, async (c) => {
    const { deps } = c.var;
    const { email } = c.req.valid('json');
    const limits = limitsOf(deps);
    await takeOrRefuse(
      [
        [limits.resetRequestsPerIp, clientIp(c)],
        [limits.resetRequestsPerAddress, email],
      ],
      deps.now(),
    );
    // Not awaited: the answer leaves as fast for an unknown address as for a known one.
    mailResetLink(deps, email).catch((err: unknown) => deps.log.error(`password reset mail to ${email} failed`, err));
    return c.json(FORGOT_ACCEPTED, 202);
  });

  app.openapi(resetPasswordRoute, async (c) => {
    const { deps } = c.var;
    const { token, password } = c.req.valid('json');
    const { userId, email } = await resetPassword(deps, token, password);
    // The owner proved the mailbox: outsiders' failed guesses no longer lock them out.
    await limitsOf(deps).loginFailuresPerAccount.reset(email);
    deps.liveStreams.endUser(userId);
    clearRefreshCookie(c);
    return c.json(PASSWORD_UPDATED, 200);
  });

  app.openapi(changePasswordRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const row = await deps.db.selectFrom('credentials').select('password_hash').where('user_id', '=', user.id).executeTakeFirst();
    // A signed-in caller guesses against their session's own budget, like a known device at login.
    const deviceKey = user.sessionId ?? `user:${user.id}`;
    const attempt = await reservePasswordAttempt(limitsOf(deps), { account: user.email, ip: clientIp(c), deviceKey }, deps.now());
    const ok = await checkedUnder(attempt, deps.now, async () =>
      verifyPassword(body.current_password, row?.password_hash ?? (await dummyPasswordHash(deps.passwordParams))),
    );
    if (!row || !ok) throw new ApiError(400, 'wrong_password', 'Your current password is incorrect.');
    await attempt.succeeded(deps.now());
    const passwordHash = await hashPassword(body.new_password, deps.passwordParams);
    await deps.db.transaction().execute((trx) => setPassword(trx, user.id, passwordHash, deps.now(), user.sessionId));
    deps.liveStreams.endUser(user.id, user.sessionId);
    return c.json(PASSWORD_UPDATED, 200);
  });

  app.openapi(logoutAllRoute, async (c) => {
    const { deps, user } = c.var;
    await revokeAllRefreshTokens(deps.db, user.id, deps.now());
    deps.liveStreams.endUser(user.id);
    clearRefreshCookie(c);
    return c.body(null, 204);
  });
}
