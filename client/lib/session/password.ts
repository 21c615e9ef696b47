import { apiErrorOf } from '../http/api-error';
import { requestJson } from './http';
import { getAccessToken, refreshSession, signOut } from './session';

// Account recovery and password changes. Plain requests through the auth client: none of this is
// queued for later, it needs the server now.

function fail(status: number, data: unknown): never {
  throw apiErrorOf(status, data, undefined, 'Something went wrong');
}

function messageOf(data: unknown, fallback: string): string {
  const msg = (data as { message?: unknown } | null)?.message;
  return typeof msg === 'string' ? msg : fallback;
}

/** Asks for a reset link; the server answers the same whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<string> {
  const ans = await requestJson('POST', '/api/auth/password/forgot', { email });
  if (!ans.ok) fail(ans.status, ans.data);
  return messageOf(ans.data, 'If an account uses this address, we have sent it a link to reset the password.');
}

/** Sets a new password with the token of the mailed link; every session of the account ends. */
export async function resetPassword(token: string, password: string): Promise<void> {
  const ans = await requestJson('POST', '/api/auth/password/reset', { token, password });
  if (!ans.ok) fail(ans.status, ans.data);
}

async function bearer(): Promise<string | null> {
  return getAccessToken() ?? (await refreshSession());
}

/** Changes the signed-in member's password; the server ends their other sessions and keeps this one. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const ans = await requestJson('POST', '/api/auth/password/change', { current_password: currentPassword, new_password: newPassword }, await bearer());
  if (!ans.ok) fail(ans.status, ans.data);
}

/** Ends every session of the member on the server (this one too), then signs out here. */
export async function signOutEverywhere(): Promise<void> {
  const ans = await requestJson('POST', '/api/auth/logout-all', undefined, await bearer());
  if (!ans.ok && ans.status !== 401) fail(ans.status, ans.data);
  await signOut();
}
