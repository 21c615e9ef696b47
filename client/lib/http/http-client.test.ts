import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { HttpClient } from './http-client';

// Against a real HTTP server on loopback: what each path answers is below.
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ auth: req.headers.authorization ?? null })),
  '/only-fresh': (req, res) => {
    if (req.headers.authorization === 'Bearer fresh') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthorized","message":"Sign in again."}}');
  },
  '/conflict': (_req, res) =>
    res
      .writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' })
      .end(JSON.stringify({ error: { code: 'too_many', message: 'Slow down.' }, last_mutation_id: 4 })),
  '/gateway': (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>'),
  '/hang': () => {},
  '/bytes': (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ method: req.method, hex: Buffer.concat(parts).toString('hex'), type: req.headers['content-type'], auth: req.headers.authorization }),
        ),
    );
  },
  '/echo': (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ got: JSON.parse(body), type: req.headers['content-type'] })),
    );
  },
};

describe('HttpClient', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => routes[req.url ?? '']?.(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('it succeeded'),
      (e: unknown) => e as ApiError,
    );

  it("sends a file's bytes as they are, typed by the caller or else by the file, with this call's token", async () => {
    const http = new HttpClient({ baseUrl: base });
    const poster = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0x00])], { type: 'image/jpeg' });
    const own = await http.send('/bytes', { method: 'PUT', blob: poster, token: 't1' });
    expect(await own.json()).toEqual({ method: 'PUT', hex: 'ffd8ff00', type: 'image/jpeg', auth: 'Bearer t1' });
    const typed = await http.send('/bytes', { method: 'PUT', blob: new Blob(['WEBVTT\n']), headers: { 'content-type': 'text/vtt' } });
    expect(await typed.json()).toMatchObject({ hex: Buffer.from('WEBVTT\n').toString('hex'), type: 'text/vtt' });
  });

  it('sends JSON and the bearer token, and reads JSON back', async () => {
    const http = new HttpClient({ baseUrl: base, auth: { token: () => 'tok', refresh: async () => null } });
    expect(await http.json('GET', '/ok')).toEqual({ auth: 'Bearer tok' });
    expect(await http.json('POST', '/echo', { a: 1 })).toEqual({ got: { a: 1 }, type: 'application/json' });
  });

  it('refreshes once on a 401 and retries with the new token', async () => {
    let refreshes = 0;
    let rejected = 0;
    const http = new HttpClient({
      baseUrl: base,
      auth: { token: () => 'stale', refresh: async () => (++refreshes, 'fresh'), onRejected: () => void rejected++ },
    });
    expect(await http.json('GET', '/only-fresh')).toEqual({ ok: true });
    expect([refreshes, rejected]).toEqual([1, 0]);
  });

  it('a refresh that fails leaves the 401; a retry refused again ends the session', async () => {
    let rejected = 0;
    const noSession = new HttpClient({ baseUrl: base, auth: { token: () => 'stale', refresh: async () => null, onRejected: () => void rejected++ } });
    expect((await noSession.send('/only-fresh', { method: 'GET' })).status).toBe(401);
    expect(rejected).toBe(0);
    const stillRefused = new HttpClient({
      baseUrl: base,
      auth: { token: () => 'stale', refresh: async () => 'also-stale', onRejected: () => void rejected++ },
    });
    const e = await failure(stillRefused.json('GET', '/only-fresh'));
    expect([e.status, e.code, e.message, rejected]).toEqual([401, 'unauthorized', 'Sign in again.', 1]);
  });

  it('an error answer carries its status, code, message, Retry-After and extra fields', async () => {
    const e = await failure(new HttpClient({ baseUrl: base }).json('POST', '/conflict', {}));
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message, e.answered, e.details.retryAfterMs, e.details.lastMutationId]).toEqual([429, 'too_many', 'Slow down.', true, 7000, 4]);
  });

  it('a 502 page that is not JSON is still an ApiError with a sentence to show', async () => {
    const e = await failure(new HttpClient({ baseUrl: base }).json('GET', '/gateway'));
    expect([e.status, e.code, e.message]).toEqual([502, 'http_502', 'Something went wrong. Please try again.']);
  });

  it('no answer in time is a timeout, a closed port a network failure: both status 0', async () => {
    const slow = await failure(new HttpClient({ baseUrl: base, timeoutMs: 150 }).json('GET', '/hang'));
    expect([slow.status, slow.code, slow.answered]).toEqual([0, 'timeout', false]);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = await failure(new HttpClient({ baseUrl: `http://127.0.0.1:${port}` }).json('GET', '/ok'));
    expect([down.status, down.code, down.message]).toEqual([0, 'network', 'The server could not be reached. Check your connection and try again.']);
  });

  it('a caller-owned signal has no timeout and its abort is passed through', async () => {
    const controller = new AbortController();
    const pending = new HttpClient({ baseUrl: base, timeoutMs: 50 }).send('/hang', { method: 'GET', signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
