import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCors } from './api-cors';

const PUBLIC_URL = 'http://127.0.0.1:5173';
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'vary',
];

function appWith(mw: MiddlewareHandler) {
  const app = new Hono();
  app.use('*', mw);
  app.get('/ok', (c) => c.json({ status: 'ok' }));
  app.get('/varied', (c) => c.json({ status: 'ok' }, 200, { Vary: 'Accept-Encoding' }));
  app.get('/fails', () => {
    throw new Error('boom');
  });
  app.post('/push', (c) => c.json({ pushed: true }, 201));
  app.onError((_err, c) => c.json({ error: 'internal' }, 500));
  return app;
}

const CASES: Array<{ path: string; init: RequestInit }> = [
  { path: '/ok', init: { headers: { origin: PUBLIC_URL } } },
  { path: '/ok', init: { headers: { origin: 'https://evil.example' } } },
  { path: '/varied', init: { headers: { origin: PUBLIC_URL } } },
  { path: '/fails', init: { headers: { origin: PUBLIC_URL } } },
  { path: '/push', init: { method: 'POST', headers: { origin: PUBLIC_URL, 'content-type': 'application/json' }, body: '{}' } },
  {
    path: '/push',
    init: {
      method: 'OPTIONS',
      headers: { origin: PUBLIC_URL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    },
  },
];

const corsOf = (res: Response): Record<string, number | string | null> => ({
  status: res.status,
  ...Object.fromEntries(CORS_HEADERS.map((h) => [h, res.headers.get(h)])),
});

describe("apiCors answers with the headers of Hono's cors({ origin, credentials: true, maxAge: 600 })", () => {
  const hono = appWith(cors({ origin: PUBLIC_URL, credentials: true, maxAge: 600 }));
  const ours = appWith(apiCors(PUBLIC_URL));

  it('through app.request', async () => {
    for (const { path, init } of CASES) {
      const expected = corsOf(await hono.request(path, init));
      expect(corsOf(await ours.request(path, init)), `${init.method ?? 'GET'} ${path}`).toEqual(expected);
    }
    expect(corsOf(await ours.request('/ok', CASES[0]!.init))['access-control-allow-origin']).toBe(PUBLIC_URL);
    expect(corsOf(await ours.request('/ok', CASES[1]!.init))['access-control-allow-origin']).toBeNull();
  });

  describe('over node:http, where it writes onto the ServerResponse', () => {
    const servers = [hono, ours].map((app) => createServer(getRequestListener(app.fetch)));
    const urls: string[] = [];
    beforeAll(async () => {
      for (const server of servers) {
        await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
        urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      }
    });
    afterAll(async () => {
      for (const server of servers) await new Promise((ok) => server.close(ok));
    });

    it('the same headers, Vary included', async () => {
      for (const { path, init } of CASES) {
        const expected = corsOf(await fetch(`${urls[0]}${path}`, init));
        const got = corsOf(await fetch(`${urls[1]}${path}`, init));
        expect(got, `${init.method ?? 'GET'} ${path}`).toEqual(expected);
      }
      const varied = await fetch(`${urls[1]}/varied`, CASES[2]!.init);
      expect(varied.headers.get('vary')).toContain('Origin');
      expect(varied.headers.get('vary')).toContain('Accept-Encoding');
    });
  });
});
