import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '#server/uploads/mount';
import { call, createTestApp, type TestApp } from '../helpers/test-app';

describe('system endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers health with the fixed body', async () => {
    const res = await call(t.app, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
  });

  it("routes with Hono's RegExpRouter: no route's shape makes the app fall back to the slower trie router", async () => {
    // SmartRouter picks its router at the first request it routes and names it (docs/benchmarks.md,
    // API floor); a GET of /api/health over node:http never reaches it (server/http/light-routes.ts).
    await t.app.request('/api/no-such-route');
    expect(t.app.router.name).toBe('SmartRouter + RegExpRouter');
  });

  it('sends the strict API security headers on JSON answers, errors included', async () => {
    for (const path of ['/api/health', '/api/no-such-route', '/api/profile']) {
      const res = await call(t.app, 'GET', path);
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sends the same API and CORS headers over node:http, where they are read and written on node objects', async () => {
    const server = createServer(createNodeListener(t.deps, t.app));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as AddressInfo;
      for (const path of ['/api/health', '/api/no-such-route']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(res.headers.get('x-frame-options'), path).toBe('DENY');
        expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
        expect(res.headers.get('content-type'), path).toContain('application/json');
      }
      const publicUrl = t.deps.config.publicUrl;
      const cors = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { origin: publicUrl } });
      expect(cors.headers.get('access-control-allow-origin')).toBe(publicUrl);
      const other = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it("answers a GET of /api/health in the node listener with the app's own route's status, body and headers", async () => {
    const server = createServer(createNodeListener(t.deps, t.app));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as AddressInfo;
      // node:http adds these to every answer, the app's included.
      const perConnection = new Set(['date', 'connection', 'keep-alive']);
      const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !perConnection.has(name)));
      const light = await fetch(`http://127.0.0.1:${port}/api/health`);
      // app.request skips the node listener: the route in the app, behind its edge middleware.
      const app = await t.app.request('/api/health');
      expect(light.status).toBe(app.status);
      expect(await light.text()).toBe(await app.text());
      expect(headersOf(light)).toEqual({ ...headersOf(app), 'content-length': '15' });
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it('sends the full document policy on pages (the API docs page)', async () => {
    const res = await call(t.app, 'GET', '/api/docs');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('publishes an OpenAPI 3.1 document with bearer security', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.paths['/api/health'].get).toBeDefined();
    expect(res.json.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('documents only patterns that are plain ECMA-262 regular expressions', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json;
    const patterns: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'pattern' && typeof x === 'string') patterns.push(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(patterns.length).toBeGreaterThan(0);
    for (const p of patterns) {
      expect(() => new RegExp(p), p).not.toThrow();
      // A JavaScript flag leaking into the string (e.g. "...$/u") makes the pattern unusable.
      expect(p, p).not.toMatch(/\/[dgimsuvy]+$/);
    }
  });

  it('serves a human API reference page', async () => {
    const page = await call(t.app, 'GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/docs/swagger-ui-bundle.js');
    const bundle = await t.app.request('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await call(t.app, 'GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it('allows CORS only for PUBLIC_URL', async () => {
    const ok = await call(t.app, 'GET', '/api/health', undefined, undefined, { origin: t.deps.config.publicUrl });
    expect(ok.headers.get('access-control-allow-origin')).toBe(t.deps.config.publicUrl);
    const other = await call(t.app, 'GET', '/api/health', undefined, undefined, { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });
});
