import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { listen, type LoopbackServer } from '../fixtures/tus-client';
import { insertVideo } from './sync-harness';
import { MAX_JSON_BODY_BYTES } from '#server/app';
import { MAX_POSTER_BYTES } from '#server/uploads/poster-routes';

// Bodies the server refuses (docs/reliability.md, "Abuse limits"): too large for the JSON limit, or
// sent to the poster route by the wrong caller. Over real HTTP on keep-alive connections.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  reused: boolean;
}

/** One request on `agent`; `body` is written whole, or only `sendOnly` bytes of a declared length. */
function send(agent: Agent, url: string, method: string, path: string, headers: OutgoingHttpHeaders, body?: Buffer, sendOnly?: number): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = httpRequest(`${url}${path}`, { method, agent, headers: body ? { 'Content-Length': String(body.length), ...headers } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), reused: req.reusedSocket }));
    });
    // A refusal that does not wait for the rest of the body ends the socket under the writer.
    req.on('error', (e: NodeJS.ErrnoException) => (sendOnly !== undefined && e.code === 'EPIPE' ? undefined : fail(e)));
    if (!body) req.end();
    else if (sendOnly === undefined) req.end(body);
    else req.write(body.subarray(0, sendOnly));
  });
}

describe('oversize and unwanted bodies', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });

  const json = (token: string) => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });

  it('answers a JSON body over the limit with 413 JSON and Connection: close, and the next request on the agent succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A keep-alive socket in use first, so the refusal arrives on a reused connection.
      expect((await send(agent, srv.url, 'GET', '/api/health', {})).status).toBe(200);
      const big = Buffer.from(JSON.stringify({ client_id: randomUUID(), mutations: [], pad: 'x'.repeat(4 * MAX_JSON_BODY_BYTES) }));
      const refused = await send(agent, srv.url, 'POST', '/api/sync/push', json(alice.token), big);
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).error.code).toBe('payload_too_large');
      // Before: ECONNRESET here, on the socket the server had reset.
      const next = await send(agent, srv.url, 'GET', '/api/health', {});
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('also for a chunked body without Content-Length', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = Buffer.alloc(MAX_JSON_BODY_BYTES + 100_000, 0x20);
      const refused = await new Promise<Answer>((ok, fail) => {
        const req = httpRequest(`${srv.url}/api/sync/push`, { method: 'POST', agent, headers: json(alice.token) }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), reused: req.reusedSocket }));
        });
        req.on('error', fail);
        for (let i = 0; i < big.length; i += 64 * 1024) req.write(big.subarray(i, i + 64 * 1024));
        req.end();
      });
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).error.code).toBe('payload_too_large');
      expect((await send(agent, srv.url, 'GET', '/api/health', {})).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('still accepts a JSON body under the limit on the same kind of connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ok = await send(agent, srv.url, 'PATCH', '/api/profile', json(alice.token), Buffer.from(JSON.stringify({ name: 'Alice A' })));
      expect(ok.status, ok.body).toBe(200);
      const again = await send(agent, srv.url, 'GET', '/api/health', {});
      expect(again).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  describe('the poster route checks the caller before it reads the body', () => {
    const declared = 4 * 1024 * 1024;
    const image = Buffer.alloc(declared, 0xff);
    const sentPart = 256 * 1024;

    /** Declares 4 MiB, sends 256 KiB and waits: the answer must come without the rest. */
    async function partialPut(videoId: string, token: string | null) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const before = srv.bytesRead();
      try {
        const headers = { 'Content-Type': 'image/jpeg', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
        const answer = await send(agent, srv.url, 'PUT', `/api/videos/${videoId}/poster`, headers, image, sentPart);
        return { answer, read: srv.bytesRead() - before };
      } finally {
        agent.destroy();
      }
    }

    it('401 for no token, without reading the body', async () => {
      const { answer, read } = await partialPut(randomUUID(), null);
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body).error.code).toBe('unauthorized');
      expect(read).toBeLessThan(declared);
    });

    it("403 for someone else's video, without reading the body", async () => {
      const videoId = await insertVideo(t.deps, bob.id);
      const { answer, read } = await partialPut(videoId, alice.token);
      expect(answer.status).toBe(403);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body).error.code).toBe('not_owner');
      expect(read).toBeLessThan(declared);
    });

    it('the owner still gets the 413 for a poster over its limit', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const tooBig = await send(
          agent,
          srv.url,
          'PUT',
          `/api/videos/${randomUUID()}/poster`,
          { 'Content-Type': 'image/jpeg', Authorization: `Bearer ${alice.token}` },
          Buffer.alloc(MAX_POSTER_BYTES + 1, 0xff),
        );
        expect(tooBig.status).toBe(413);
        expect((await send(agent, srv.url, 'GET', '/api/health', {})).status).toBe(200);
      } finally {
        agent.destroy();
      }
    });
  });
});
