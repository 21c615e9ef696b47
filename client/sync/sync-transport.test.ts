import { describe, expect, it } from 'vitest';
import { PausedError, RateLimitedError, SyncTransport, TemporaryError } from './sync-transport';

/** A token whose payload names `sub`, as the server's access tokens do. */
const tokenFor = (sub: string) => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.s`;

function transport(answers: Array<number | Response>, opts: { token?: string | null; refreshed?: unknown } = {}) {
  const seen: string[] = [];
  const t = new SyncTransport({
    userId: 'u1',
    getAccessToken: () => (opts.token === undefined ? tokenFor('u1') : opts.token),
    refreshSession: async () => opts.refreshed,
    fetch: async (_input, init) => {
      seen.push(String(new Headers(init?.headers).get('authorization')));
      const a = answers.shift() ?? 200;
      return typeof a === 'number' ? new Response('{}', { status: a }) : a;
    },
  });
  return { t, seen };
}

const post = { method: 'POST', body: {} };
const forbidden = (code: string) => new Response(JSON.stringify({ error: { code, message: code } }), { status: 403 });

describe('SyncTransport', () => {
  it('refreshes once on a 401 and retries with the new token', async () => {
    const fresh = tokenFor('u1');
    const { t, seen } = transport([401, 200], { refreshed: fresh });
    expect((await t.request('/api/sync/pull', post)).status).toBe(200);
    expect(seen).toEqual([`Bearer ${tokenFor('u1')}`, `Bearer ${fresh}`]);
  });

  it("pauses as signed out on a second 401, without a token, or with another user's token", async () => {
    await expect(transport([401, 401]).t.request('/x', post)).rejects.toBeInstanceOf(PausedError);
    await expect(transport([], { token: null }).t.request('/x', post)).rejects.toMatchObject({ reason: 'signed_out' });
    const other = transport([], { token: tokenFor('u2') });
    await expect(other.t.request('/x', post)).rejects.toMatchObject({ reason: 'signed_out' });
    expect(other.seen).toEqual([]);
  });

  it('reads a 429 Retry-After, a 5xx as temporary and a network failure as offline', async () => {
    const limited = () => new Response('{}', { status: 429, headers: { 'retry-after': '3' } });
    await expect(transport([limited()]).t.request('/x', post)).rejects.toMatchObject({ waitMs: 3000 });
    await expect(transport([limited()]).t.request('/x', post)).rejects.toBeInstanceOf(RateLimitedError);
    await expect(transport([503]).t.request('/x', post)).rejects.toMatchObject({ offline: false });
    const down = new SyncTransport({
      userId: 'u1',
      getAccessToken: () => tokenFor('u1'),
      refreshSession: async () => null,
      fetch: () => Promise.reject(new Error('down')),
    });
    const err = await down.request('/x', post).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporaryError);
    expect(err).toMatchObject({ offline: true });
  });

  it('pauses on a 403 by its code, except a taken client id, which the pusher answers', async () => {
    await expect(transport([forbidden('account_suspended')]).t.request('/x', post)).rejects.toMatchObject({ reason: 'account_suspended' });
    await expect(transport([forbidden('nope')]).t.request('/x', post)).rejects.toMatchObject({ reason: 'forbidden' });
    expect((await transport([forbidden('client_id_taken')]).t.request('/x', post)).status).toBe(403);
  });
});
