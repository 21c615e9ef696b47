import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { answerLightRoutesFirst } from './light-routes';
import { apiHeadersFor } from './security-headers';

const answer = (c: Context) => c.json({ status: 'ok' }, 200);

/** An app whose global middleware marks what it answered, with /api/health also a light route. */
function appWithLightHealth(publicUrl = 'http://127.0.0.1') {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('x-through', 'app');
  });
  app.get('/api/health', answer);
  const onError = (_err: Error, c: Context) => c.json({ error: 'internal' }, 500);
  answerLightRoutesFirst(app, [{ path: '/api/health', answer }], apiHeadersFor(publicUrl), { onError, notFound: (c) => c.json({}, 404) });
  return app;
}

describe('answerLightRoutesFirst', () => {
  it('answers a GET of a light route at once (no promise), with the API headers and not through the middleware', async () => {
    const app = appWithLightHealth();
    for (const url of ['http://x/api/health', 'http://x/api/health?probe=1']) {
      const res = app.fetch(new Request(url));
      expect(res, url).toBeInstanceOf(Response);
      const answered = res as Response;
      expect(await answered.json()).toEqual({ status: 'ok' });
      expect(answered.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answered.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answered.headers.get('x-frame-options')).toBe('DENY');
      expect(answered.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(answered.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(answered.headers.get('strict-transport-security')).toBeNull();
      expect(answered.headers.get('x-through')).toBeNull();
    }
  });

  it('sends HSTS on a light route when the public origin is https', async () => {
    const res = await appWithLightHealth('https://vidi.example').request('/api/health');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('leaves a request with an Origin, a HEAD and any other path to the app', async () => {
    const app = appWithLightHealth();
    const withOrigin = await app.request('/api/health', { headers: { origin: 'http://127.0.0.1' } });
    expect(withOrigin.headers.get('x-through')).toBe('app');
    expect((await app.request('/api/health', { method: 'HEAD' })).headers.get('x-through')).toBe('app');
    expect((await app.request('/api/health/')).headers.get('x-through')).toBe('app');
    expect((await app.request('/api/healthz')).status).toBe(404);
  });

  it('reads the Origin from node:http and writes the headers on the ServerResponse', async () => {
    const server = createServer(getRequestListener(appWithLightHealth().fetch));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`;
      const light = await fetch(base);
      expect(await light.json()).toEqual({ status: 'ok' });
      expect(light.headers.get('x-frame-options')).toBe('DENY');
      expect(light.headers.get('content-type')).toContain('application/json');
      expect(light.headers.get('x-through')).toBeNull();
      const cors = await fetch(base, { headers: { origin: 'http://127.0.0.1' } });
      expect(cors.headers.get('x-through')).toBe('app');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});
