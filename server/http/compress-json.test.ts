import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { compressJsonAnswer, COMPRESS_MIN_BYTES } from './compress-json';

const big = { items: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Video number ${i}`, likes: i * 3 })) };
const bigText = JSON.stringify(big);
const small = { status: 'ok' };

function app() {
  const a = new Hono();
  a.use('*', (c, next) => next().then(() => compressJsonAnswer(c)));
  // Touches c.res before the handler, as hono/cors does: Hono then re-wraps the handler's answer.
  a.use('/touched', async (c, next) => {
    c.res.headers.set('x-touched', '1');
    await next();
  });
  a.use('/cors', cors({ origin: 'http://app.test' }));
  a.get('/big', (c) => c.json(big));
  a.get('/small', (c) => c.json(small));
  a.get('/body', (c) => c.body(bigText, 200, { 'content-type': 'application/json; charset=UTF-8' }));
  a.get('/bytes', (c) => c.body(new TextEncoder().encode(bigText), 200, { 'content-type': 'application/json' }));
  a.get('/problem', (c) => c.json(big, 422, { 'Content-Type': 'application/problem+json' }));
  a.get('/etag', (c) => c.json(big, 200, { ETag: '"v1"' }));
  a.get('/weak-etag', (c) => c.json(big, 200, { ETag: 'W/"v1"' }));
  a.get('/no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'private, No-Transform' }));
  a.get('/coded', (c) => c.body(gzipSync(bigText), 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }));
  a.get('/text', (c) => c.text(bigText));
  a.get('/empty', (c) => c.body(null, 204));
  a.get('/by-hand', () => new Response(bigText, { headers: { 'content-type': 'application/json' } }));
  a.get('/by-hand-small', () => new Response('{"a":1}', { headers: { 'content-type': 'application/json', 'x-kept': 'yes' } }));
  a.get('/touched', (c) => c.json(big));
  a.get('/cors', (c) => c.json(big));
  a.get('/stream', (c) =>
    streamSSE(c, async (s) => {
      await s.writeSSE({ event: 'ready', data: bigText });
    }),
  );
  return a;
}

const decode = (coding: string | null, bytes: Buffer) => (coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes);

async function fetchApp(path: string, acceptEncoding = 'gzip, deflate, br', extra: Record<string, string> = {}) {
  const res = await app().request(path, { headers: { 'Accept-Encoding': acceptEncoding, ...extra } });
  const raw = Buffer.from(await res.arrayBuffer());
  const coding = res.headers.get('content-encoding');
  return { res, raw, coding, text: decode(coding, raw).toString() };
}

function cases() {
  it('compresses a large JSON answer with br, else gzip, else not at all; Vary and Content-Length on each', async () => {
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', null],
      ['', null],
    ] as const) {
      const { res, raw, coding, text } = await fetchApp('/big', accept);
      expect(coding, accept).toBe(expected);
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(res.headers.get('content-type'), accept).toBe('application/json');
      expect(text, accept).toBe(bigText);
      if (expected) {
        expect(raw.length, accept).toBeLessThan(bigText.length / 3);
        expect(res.headers.get('content-length'), accept).toBe(String(raw.length));
      }
    }
  });

  it('compresses JSON given to c.body as a string or bytes, and +json types, keeping the status', async () => {
    for (const path of ['/body', '/bytes', '/problem']) {
      const { res, coding, text } = await fetchApp(path);
      expect(coding, path).toBe('br');
      expect(text, path).toBe(bigText);
      expect(res.status, path).toBe(path === '/problem' ? 422 : 200);
    }
  });

  it('leaves answers under the threshold untouched: no coding, no Vary', async () => {
    expect(JSON.stringify(small).length).toBeLessThan(COMPRESS_MIN_BYTES);
    for (const path of ['/small', '/by-hand-small']) {
      const { res, coding } = await fetchApp(path);
      expect(coding, path).toBeNull();
      expect(res.headers.get('vary'), path).toBeNull();
    }
    expect((await fetchApp('/by-hand-small')).res.headers.get('x-kept')).toBe('yes');
  });

  it('weakens a strong ETag of a compressed answer and keeps a weak one', async () => {
    expect((await fetchApp('/etag')).res.headers.get('etag')).toBe('W/"v1"');
    expect((await fetchApp('/weak-etag')).res.headers.get('etag')).toBe('W/"v1"');
    expect((await fetchApp('/etag', 'identity')).res.headers.get('etag')).toBe('"v1"');
  });

  it('never touches no-transform, already coded, non-JSON, empty or streamed answers', async () => {
    expect((await fetchApp('/no-transform')).coding).toBeNull();
    const coded = await fetchApp('/coded');
    expect(coded.coding).toBe('gzip');
    expect(coded.text).toBe(bigText);
    expect((await fetchApp('/text')).coding).toBeNull();
    const empty = await fetchApp('/empty');
    expect(empty.res.status).toBe(204);
    expect(empty.coding).toBeNull();
    const stream = await fetchApp('/stream');
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.coding).toBeNull();
    expect(stream.text).toContain('event: ready');
  });

  it('compresses answers it did not see being made: built by hand, or re-wrapped after c.res was touched', async () => {
    for (const path of ['/by-hand', '/touched']) {
      const { coding, text } = await fetchApp(path);
      expect(coding, path).toBe('br');
      expect(text, path).toBe(bigText);
    }
    expect((await fetchApp('/touched')).res.headers.get('x-touched')).toBe('1');
    const withCors = await fetchApp('/cors', 'br', { Origin: 'http://app.test' });
    expect(withCors.coding).toBe('br');
    expect(withCors.text).toBe(bigText);
    expect(withCors.res.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(withCors.res.headers.get('vary')).toMatch(/^Origin, Accept-Encoding$/i);
  });
}

describe('compressJsonAnswer, with the platform Response (app.request)', cases);

// What production runs: @hono/node-server's Response, whose string bodies are read without a stream.
describe("compressJsonAnswer, with @hono/node-server's Response", () => {
  const platform = { Request: globalThis.Request, Response: globalThis.Response };
  beforeAll(() => {
    getRequestListener(() => new Response(null));
    expect(globalThis.Response).not.toBe(platform.Response);
  });
  afterAll(() => {
    Object.defineProperty(globalThis, 'Request', { value: platform.Request });
    Object.defineProperty(globalThis, 'Response', { value: platform.Response });
  });
  cases();
});
