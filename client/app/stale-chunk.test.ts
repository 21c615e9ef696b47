import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkUrlOf, reloadIfChunkGone, type ChunkPage } from './stale-chunk';

// A real server on loopback: /assets/here-1.js is there, /assets/gone-1.js is not (an older deploy's).
let server: Server;
let origin = '';
const heads: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    heads.push(`${req.method} ${req.url}`);
    res.writeHead(req.url === '/assets/here-1.js' ? 200 : 404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

function page(online = true): ChunkPage & { reloads: number; stored: Map<string, string> } {
  const stored = new Map<string, string>();
  const p = {
    reloads: 0,
    stored,
    online: () => online,
    path: () => '/home',
    storage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) },
    fetch: (url: string, init: RequestInit) => fetch(url, init),
    reload: () => void p.reloads++,
  };
  return p;
}
const failed = (file: string) => new TypeError(`Failed to fetch dynamically imported module: ${origin}/assets/${file}`);

describe('reloadIfChunkGone', () => {
  it('reads the file from the browser and vite messages', () => {
    expect(chunkUrlOf(new TypeError('Failed to fetch dynamically imported module: http://x.test/assets/a-B1.js'))).toBe('http://x.test/assets/a-B1.js');
    expect(chunkUrlOf(new Error('Unable to preload CSS for http://x.test/assets/b-C2.css'))).toBe('http://x.test/assets/b-C2.css');
    expect(chunkUrlOf(new Error('something else'))).toBeNull();
  });

  it('reloads once per path when the server no longer has the chunk, asking with a HEAD', async () => {
    const p = page();
    expect(await reloadIfChunkGone(failed('gone-1.js'), p)).toBe(true);
    expect(p.reloads).toBe(1);
    expect(heads.at(-1)).toBe('HEAD /assets/gone-1.js');
    // The reloaded page misses it again (a broken deploy): no loop.
    expect(await reloadIfChunkGone(failed('gone-1.js'), p)).toBe(false);
    expect(p.reloads).toBe(1);
  });

  it('reloads nothing when the chunk is there (it only failed to come) or the server cannot be reached', async () => {
    const p = page();
    expect(await reloadIfChunkGone(failed('here-1.js'), p)).toBe(false);
    const unreachable = new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:9/assets/gone-1.js');
    expect(await reloadIfChunkGone(unreachable, p)).toBe(false);
    expect(p.reloads).toBe(0);
    expect(p.stored.size).toBe(0);
  });

  it('asks nothing offline, or for an error that names no file', async () => {
    const before = heads.length;
    const offline = page(false);
    expect(await reloadIfChunkGone(failed('gone-1.js'), offline)).toBe(false);
    expect(await reloadIfChunkGone(new Error('boom'), page())).toBe(false);
    expect(heads.length).toBe(before);
    expect(offline.reloads).toBe(0);
  });
});
