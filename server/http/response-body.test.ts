import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { knownBody } from './response-body';

describe('knownBody', () => {
  const platform = { Request: globalThis.Request, Response: globalThis.Response };

  it('is undefined for a platform Response: its body is only a stream', () => {
    expect(knownBody(new platform.Response('{"a":1}'))).toBeUndefined();
  });

  describe("with @hono/node-server's Response installed, as under npm start", () => {
    beforeAll(() => {
      getRequestListener(() => new Response(null));
    });
    afterAll(() => {
      Object.defineProperty(globalThis, 'Request', { value: platform.Request });
      Object.defineProperty(globalThis, 'Response', { value: platform.Response });
    });

    // If this fails after an upgrade of @hono/node-server, JSON compression still works but reads
    // every API answer back as a stream (server/http/response-body.ts): the API floor drops.
    it('gives the string or bytes an answer was made with, and null for none', () => {
      expect(knownBody(new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } }))).toBe('{"status":"ok"}');
      const bytes = new Uint8Array([1, 2, 3]);
      expect(knownBody(new Response(bytes))).toBe(bytes);
      expect(knownBody(new Response(null, { status: 204 }))).toBeNull();
    });

    it('is undefined for a streamed body, which it never reads', async () => {
      const res = new Response(new Blob(['x']).stream());
      expect(knownBody(res)).toBeUndefined();
      expect(await res.text()).toBe('x');
    });
  });
});
