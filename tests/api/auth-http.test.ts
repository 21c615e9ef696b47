import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { lastMailTo } from '../helpers/mail-sink';
import { http, refreshCookie } from './auth-http-client';

// The accounts API over real HTTP against the real server process: the refresh cookie as a browser
// would carry it, and per-IP limits keyed by the real TCP peer address (getConnInfo), which the
// in-process tests can only simulate.

describe('accounts over real HTTP', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: 'error' } });
  });
  afterAll(() => server.stop());

  it('signs up, verifies, logs in and keeps the session with the HttpOnly cookie alone', async () => {
    const su = await http(server, 'POST', '/api/auth/signup', { body: { name: 'Wire', email: 'wire@example.test', password: 'wire-password' } });
    expect(su.status).toBe(201);
    const link = new URL(lastMailTo(server.dataDir, 'wire@example.test').links.find((l) => l.includes('/api/auth/verify')) ?? '');
    const verified = await http(server, 'GET', link.pathname + link.search);
    expect(verified.status).toBe(302);
    expect(verified.headers.location).toMatch(/\/login\?verified=1$/);

    const login = await http(server, 'POST', '/api/auth/login', { body: { email: 'wire@example.test', password: 'wire-password' } });
    expect(login.status).toBe(200);
    const cookie = refreshCookie(login) ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    const pair = cookie.split(';')[0] ?? '';

    const refreshed = await http(server, 'POST', '/api/auth/refresh', { cookie: pair });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.user.email).toBe('wire@example.test');
    const next = (refreshCookie(refreshed) ?? '').split(';')[0] ?? '';
    expect(next).not.toBe(pair);

    const out = await http(server, 'POST', '/api/auth/logout', { cookie: next });
    expect(out.status).toBe(204);
    expect(refreshCookie(out)).toMatch(/^vidi_refresh=; Max-Age=0/);
    expect((await http(server, 'POST', '/api/auth/refresh', { cookie: next })).status).toBe(401);
  }, 60_000);

  it('keys per-IP limits by the connection’s peer address', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await http(server, 'POST', '/api/auth/resend-verification', { body: { email: `peer-${i}@example.test` }, from: '127.0.0.2' });
      expect(res.status).toBe(202);
    }
    const blocked = await http(server, 'POST', '/api/auth/resend-verification', { body: { email: 'peer-x@example.test' }, from: '127.0.0.2' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const otherPeer = await http(server, 'POST', '/api/auth/resend-verification', { body: { email: 'peer-x@example.test' }, from: '127.0.0.1' });
    expect(otherPeer.status).toBe(202);
  });
});

describe('per-IP limits behind a reverse proxy (TRUST_PROXY_HOPS=1)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: 'error', TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => server.stop());

  const resend = (i: string, forwardedFor?: string) =>
    http(server, 'POST', '/api/auth/resend-verification', { body: { email: `proxied-${i}@example.test` }, ...(forwardedFor ? { forwardedFor } : {}) });

  it('keys them by the address the proxy saw, and ignores what the client wrote before it', async () => {
    // One client behind the proxy, each request with a different forged entry in front: one key.
    for (let i = 0; i < 20; i++) expect((await resend(`a${i}`, `10.9.9.${i}, 203.0.113.7`)).status).toBe(202);
    expect((await resend('a-last', '10.9.9.99, 203.0.113.7')).status).toBe(429);
    // Another client behind the same proxy (the same TCP peer) has its own window.
    expect((await resend('b', '198.51.100.4')).status).toBe(202);
  });
});
