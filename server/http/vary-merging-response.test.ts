import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { mergeVary, VaryMergingResponse } from './vary-merging-response';

/** Answers with `answer` after setting Vary: Origin on the response, under a VaryMergingResponse. */
async function varyOf(answer: (res: ServerResponse) => void, setBefore = true): Promise<string | null> {
  const server = createServer({ ServerResponse: VaryMergingResponse }, (_req: IncomingMessage, res: ServerResponse) => {
    if (setBefore) res.setHeader('Vary', 'Origin');
    answer(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await res.arrayBuffer();
    return res.headers.get('vary');
  } finally {
    await new Promise((ok) => server.close(ok));
  }
}

describe('VaryMergingResponse', () => {
  it("merges a Vary set before the answer with the answer's own, in any letter case, with or without a reason", async () => {
    expect(await varyOf((res) => res.writeHead(200, { vary: 'Accept-Encoding' }).end('x'))).toBe('Accept-Encoding, Origin');
    expect(await varyOf((res) => res.writeHead(200, { Vary: 'Accept-Encoding', 'x-a': '1' }).end('x'))).toBe('Accept-Encoding, Origin');
    expect(await varyOf((res) => res.writeHead(201, 'Made', { VARY: ['Cookie', 'Accept-Encoding'] }).end('x'))).toBe('Cookie, Accept-Encoding, Origin');
  });

  it("keeps the Vary set before when the answer has none, and the answer's when nothing was set before", async () => {
    expect(await varyOf((res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'))).toBe('Origin');
    expect(await varyOf((res) => res.end('x'))).toBe('Origin');
    expect(await varyOf((res) => res.writeHead(200, { vary: 'Accept-Encoding' }).end('x'), false)).toBe('Accept-Encoding');
  });

  it('names a header once, and * alone', () => {
    expect(mergeVary('origin, Accept-Encoding', 'Origin')).toBe('origin, Accept-Encoding');
    expect(mergeVary('*', 'Origin')).toBe('*');
    expect(mergeVary('Accept-Encoding', ['Origin', 'Cookie'])).toBe('Accept-Encoding, Origin, Cookie');
  });
});
