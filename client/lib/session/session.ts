import { apiErrorOf, type ApiError } from '../http/api-error';
import { HttpClient } from '../http/http-client';
import { isNoAnswer, isRefusedRefresh, requestJson } from './http';
import { markRefreshCookie, mayHoldRefreshCookie, readCachedUser, SESSION_USER_KEY, writeCachedUser } from './session-cache';
import { persistWhenInstalled } from './persist-storage';
import { withRefreshLock } from './refresh-lock';
import { expiryMs, isAuthSession, type AuthSession, type SessionState, type SessionUser } from './session-types';

/** docs/pwa.md, "Session": a tick every 30 s; refresh when within 3 ticks of expiry. */
export const REFRESH_TICK_MS = 30_000;
export const REFRESH_THRESHOLD_TICKS = 3;

type Listener = () => void;
export type SignOutReason = 'user' | 'expired';
export interface SessionEvents {
  signedIn(user: SessionUser): void;
  signedOut(reason: SignOutReason): void;
  /** The member asked to sign out: stop what would still call the server with this session. */
  signingOut(): Promise<void> | void;
}

let state: SessionState = { status: 'loading' };
// The access token lives in memory only; the refresh token is the HttpOnly cookie.
let accessToken: string | null = null;
let expiresAt = 0;
let refreshing: Promise<string | null> | null = null;
let restoring: Promise<void> | null = null;
let tickTimer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<Listener>();
const eventHandlers = new Set<Partial<SessionEvents>>();

function setState(next: SessionState): void {
  state = next;
  for (const l of listeners) l();
}

export function subscribeSession(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
export function getSessionState(): SessionState {
  return state;
}
/** Sign-in / sign-out hooks (the sync engine starts and stops through these). */
export function onSessionEvents(h: Partial<SessionEvents>): () => void {
  eventHandlers.add(h);
  return () => eventHandlers.delete(h);
}

export function getAccessToken(): string | null {
  return accessToken && Date.now() < expiresAt ? accessToken : null;
}

export function currentUser(): SessionUser | null {
  return state.status === 'signedIn' ? state.user : null;
}

function applySession(s: AuthSession): void {
  const wasSignedIn = state.status === 'signedIn' ? state.user.id : null;
  accessToken = s.access_token;
  expiresAt = expiryMs(s);
  markRefreshCookie(true);
  writeCachedUser(s.user);
  setState({ status: 'signedIn', user: s.user, offline: false });
  if (wasSignedIn !== s.user.id) announceSignedIn(s.user);
}

function announceSignedIn(user: SessionUser): void {
  for (const h of eventHandlers) h.signedIn?.(user);
}

/** Ends the session locally. Queued (outbox) actions stay in IndexedDB and are sent after the next sign-in. */
function endSession(reason: SignOutReason): void {
  const was = state.status === 'signedIn';
  accessToken = null;
  expiresAt = 0;
  markRefreshCookie(false);
  writeCachedUser(null);
  setState({ status: 'signedOut' });
  if (was) for (const h of eventHandlers) h.signedOut?.(reason);
}

/**
 * Trades the refresh cookie for a new session (single flight). Returns the new access token, or null when the
 * server could not be reached (the session stays, offline) or refused (the session ends: back to /login).
 */
export function refreshSession(): Promise<string | null> {
  // No session in this tab (signed out, or a sign-in still pending): there is no cookie of ours to
  // trade, and a stray caller (an upload resumed on 'online', an engine still stopping) would only
  // earn a 400. Signing in sets the session before anything else runs.
  if (state.status === 'signedOut') return Promise.resolve(null);
  refreshing ??= doRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function doRefresh(): Promise<string | null> {
  try {
    const ans = await withRefreshLock(() => requestJson('POST', '/api/auth/refresh', {}));
    if (ans.ok && isAuthSession(ans.data)) {
      applySession(ans.data);
      return accessToken;
    }
    if (isRefusedRefresh(ans.status)) {
      endSession('expired');
      return null;
    }
    // 429 / 5xx: keep what we have and try again on the next tick.
    return null;
  } catch (e) {
    if (isNoAnswer(e)) {
      if (state.status === 'signedIn' && !state.offline && !getAccessToken()) setState({ ...state, offline: true });
      return null;
    }
    throw e;
  }
}

/** On load: restore through the refresh cookie; with no network, open signed in from the cached profile. */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    startTicking();
    const cached = readCachedUser();
    // Only a device that signed in before can hold a refresh cookie (HttpOnly, so unreadable here):
    // visitors skip the call instead of logging a 400 on every page load, and so does a member
    // whose cookie has gone (expired, or cleared): its readable twin went with it.
    if (!cached) {
      setState({ status: 'signedOut' });
      return;
    }
    if (!mayHoldRefreshCookie()) {
      endSession('expired');
      return;
    }
    try {
      const ans = await withRefreshLock(() => requestJson('POST', '/api/auth/refresh', {}));
      if (ans.ok && isAuthSession(ans.data)) return applySession(ans.data);
      if (ans.status >= 500 || ans.status === 429) return openOffline(cached);
      endSession('expired');
    } catch (e) {
      if (!isNoAnswer(e)) throw e;
      openOffline(cached);
    }
  })();
  return restoring;
}

function openOffline(user: SessionUser): void {
  setState({ status: 'signedIn', user, offline: true });
  announceSignedIn(user);
}

function tick(): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
  if (state.status !== 'signedIn') return;
  if (!accessToken || expiresAt - Date.now() < REFRESH_TICK_MS * REFRESH_THRESHOLD_TICKS) void refreshSession();
}

function startTicking(): void {
  if (tickTimer || typeof window === 'undefined') return;
  tickTimer = setInterval(tick, REFRESH_TICK_MS);
  document.addEventListener('visibilitychange', tick);
  window.addEventListener('online', tick);
  window.addEventListener('storage', followOtherTabs);
  // Persistent storage is asked for at install or on the first thing kept offline, not at sign-in.
  persistWhenInstalled();
}

/** Another tab signed out (the cached profile went) or in (it appeared): this tab follows. */
function followOtherTabs(e: StorageEvent): void {
  if (e.key !== SESSION_USER_KEY && e.key !== null) return;
  const cached = readCachedUser();
  if (!cached && state.status === 'signedIn') endSession('user');
  else if (cached && state.status === 'signedOut') {
    restoring = null;
    void restoreSession();
  }
}

function toAuthError(status: number, data: unknown): ApiError {
  return apiErrorOf(status, data, undefined, 'Something went wrong');
}

export async function signIn(email: string, password: string): Promise<SessionUser> {
  const ans = await requestJson('POST', '/api/auth/login', { email, password });
  if (!ans.ok || !isAuthSession(ans.data)) throw toAuthError(ans.status, ans.data);
  applySession(ans.data);
  return ans.data.user;
}

export interface SignUpResult {
  user: { id: string; email: string; name: string; account_status: string };
  verification_sent?: boolean;
}

export async function signUp(name: string, email: string, password: string): Promise<SignUpResult> {
  const ans = await requestJson('POST', '/api/auth/signup', { name, email, password });
  if (!ans.ok) throw toAuthError(ans.status, ans.data);
  return ans.data as SignUpResult;
}

/** Asks for a new verification e-mail; the server answers the same whether or not the address exists. */
export async function resendVerification(email: string): Promise<string> {
  const ans = await requestJson('POST', '/api/auth/resend-verification', { email });
  if (!ans.ok) throw toAuthError(ans.status, ans.data);
  const msg = (ans.data as { message?: unknown } | null)?.message;
  return typeof msg === 'string' ? msg : 'A new verification link has been sent.';
}

/** Signs out on the server when reachable; locally in any case (queued actions are kept). */
export async function signOut(): Promise<void> {
  const token = getAccessToken();
  // A pull still running when the server ends the session would be refused (401), and its refresh
  // too (400): let the sync engine finish and stop first, but never hold the sign-out for long.
  const stopped = Promise.all([...eventHandlers].map((h) => h.signingOut?.()));
  await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 3000))]).catch(() => undefined);
  try {
    await requestJson('POST', '/api/auth/logout', {}, token);
  } catch {
    // Offline: the refresh cookie is cleared on the next successful call or expires.
  }
  endSession('user');
}

/** The server's copy of the user changed (e.g. a new name): keep the cached profile in step. */
export function updateSessionUser(patch: Partial<Pick<SessionUser, 'name'>>): void {
  if (state.status !== 'signedIn') return;
  const user = { ...state.user, ...patch };
  writeCachedUser(user);
  setState({ ...state, user });
}

/**
 * The signed-in member's calls: the bearer token, a 401 refreshes once and retries, a second 401
 * ends the session.
 */
export const memberHttp = new HttpClient({
  auth: {
    token: () => getAccessToken() ?? refreshSession(),
    refresh: refreshSession,
    onRejected: () => endSession('expired'),
  },
});
