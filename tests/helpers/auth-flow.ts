import type { App } from '#server/app';
import { call, type TestApp } from './test-app';
import { lastMailTo } from './mail-sink';

/**
 * A request as if it came over a TCP connection from `ip`: @hono/node-server's getConnInfo reads
 * the socket from the env bindings, which app.request() lets a test supply. No header is trusted
 * for this, in tests or production.
 */
export async function callFrom(app: App, ip: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  const init: RequestInit = { method, headers: h };
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await app.request(path, init, { incoming: { socket: { remoteAddress: ip, remotePort: 40000, remoteFamily: 'IPv4' } } });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** The verification link of the newest mail to `email`, from the file mail sink. */
export function verificationLinkFor(t: TestApp, email: string): string {
  const link = lastMailTo(t.dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
  if (!link) throw new Error(`no verification link in the mail to ${email}`);
  return link;
}

/** Opens a link of the app (absolute, from a mail) in-process and returns the response without following redirects. */
export function openLink(t: TestApp, link: string) {
  const url = new URL(link);
  return t.app.request(url.pathname + url.search, { redirect: 'manual' });
}

/** Real sign-up through the API, then the mailed link: a verified member that can log in with `password`. */
export async function signUpVerified(t: TestApp, opts: { name?: string; email: string; password: string }) {
  const res = await call(t.app, 'POST', '/api/auth/signup', { name: opts.name ?? 'Test Member', email: opts.email, password: opts.password });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  const verified = await openLink(t, verificationLinkFor(t, opts.email));
  if (verified.headers.get('location')?.endsWith('verified=1') !== true) throw new Error('verification failed');
  return res.json.user as { id: string; email: string; name: string };
}

export async function login(t: TestApp, email: string, password: string) {
  return call(t.app, 'POST', '/api/auth/login', { email, password });
}

/** `name=value` of a Set-Cookie header for `name`, with its attributes. */
export function setCookie(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}
