import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerLightRoutesFirst } from './light-routes';
import { apiHeadersFor, HSTS_VALUE } from './security-headers';

/** A node:http server with /api/health as a light route in front of a listener that marks what it answered. */
async function withLightHealth(publicUrl: string, run: (url: string) => Promise<void>): Promise<void> {
  const next = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'x-through': 'app', 'content-type': 'application/json' });
    res.end('{"from":"app"}');
  };
  const server = createServer(answerLightRoutesFirst([{ path: '/api/health', body: { status: 'ok' } }], apiHeadersFor(publicUrl), next));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((ok) => server.close(ok));
  }
}

describe('answerLightRoutesFirst', () => {
  it('answers a GET of a light route itself, with its body and every API header, query string or not', async () => {
    await withLightHealth('http://127.0.0.1', async (base) => {
      for (const path of ['/api/health', '/api/health?probe=1']) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-through'), path).toBeNull();
        expect(await res.text(), path).toBe('{"status":"ok"}');
        expect(res.headers.get('content-type'), path).toBe('application/json');
        expect(res.headers.get('content-length'), path).toBe('15');
        expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(res.headers.get('x-frame-options'), path).toBe('DENY');
        expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
        expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
        expect(res.headers.get('strict-transport-security'), path).toBeNull();
      }
    });
  });

  it('sends HSTS on a light route when the public origin is https', async () => {
    await withLightHealth('https://vidi.example', async (base) => {
      const res = await fetch(`${base}/api/health`);
      expect(res.headers.get('x-through')).toBeNull();
      expect(res.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    });
  });

  it('leaves a request with an Origin, a HEAD, a POST and any other path to the app', async () => {
    await withLightHealth('http://127.0.0.1', async (base) => {
      const requests: [string, RequestInit][] = [
        ['/api/health', { headers: { origin: 'http://127.0.0.1' } }],
        ['/api/health', { method: 'HEAD' }],
        ['/api/health', { method: 'POST', body: '{}' }],
        ['/api/health/', {}],
        ['/api/healthz', {}],
        ['/api/health/x?y', {}],
      ];
      for (const [path, init] of requests) {
        const res = await fetch(`${base}${path}`, init);
        expect(res.headers.get('x-through'), `${init.method ?? 'GET'} ${path}`).toBe('app');
        await res.arrayBuffer();
      }
    });
  });
});
