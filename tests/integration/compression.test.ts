import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { readSseEvents } from '../helpers/sse';
import { listen, type LoopbackServer } from '../fixtures/tus-client';
import { PROJECT_ROOT } from '../helpers/server-process';
import { CSS, GZIP_ONLY_JS, JS, SMALL_JS, writeClientDist, type ClientDist } from './client-dist';

const FEED = '/api/videos?limit=20';

/** Accept-Encoding as sent (undefined: no header) -> the coding expected when br and gzip are on offer. */
const MATRIX: Array<[string | undefined, 'br' | 'gzip' | null]> = [
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['br;q=0, gzip', 'gzip'],
  ['identity', null],
  [undefined, null],
  ['*', 'br'],
];

const decode = (coding: string | null, bytes: Buffer) => (coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes);

describe('compression of the client and of API answers', () => {
  let dist: ClientDist;
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    dist = writeClientDist();
    t = await createTestApp({ CLIENT_DIST: dist.dir });
    alice = await createUser(t.deps, { name: 'Alice' });
    for (let i = 0; i < 20; i++) {
      await insertVideo(t.deps, alice.id, {
        title: `A clip about the sea, number ${i}`,
        description: 'Waves, sand and a long walk at sunset.',
        created_at: Date.now() - i * 1000,
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist.root, { recursive: true, force: true });
  });

  const get = async (path: string, acceptEncoding?: string, extra: Record<string, string> = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${alice.token}`, ...extra };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    const res = await t.app.request(path, { headers });
    return { res, raw: Buffer.from(await res.arrayBuffer()) };
  };

  it('the feed page is large enough to be compressed', async () => {
    const { res, raw } = await get(FEED);
    expect(res.status).toBe(200);
    expect(JSON.parse(raw.toString()).items).toHaveLength(20);
    expect(raw.length).toBeGreaterThan(1024);
  });

  for (const [name, path] of [
    ['a JS asset', JS],
    ['a CSS asset', CSS],
    ['the landing page', '/'],
    ['a feed page', FEED],
  ] as const) {
    it(`${name}: the coding each Accept-Encoding gets, Vary on all, the same bytes once decoded`, async () => {
      const identity = (await get(path)).raw;
      if (path !== FEED) expect(identity.equals(dist.files.get(path === '/' ? '/index.html' : path)!)).toBe(true);
      for (const [accept, expected] of MATRIX) {
        const { res, raw } = await get(path, accept);
        const label = `${path} with ${accept ?? 'no Accept-Encoding'}`;
        expect(res.status, label).toBe(200);
        expect(res.headers.get('content-encoding'), label).toBe(expected);
        expect(res.headers.get('vary'), label).toMatch(/(^|,\s*)Accept-Encoding(,|$)/i);
        // An identity JSON answer gets its length from the node adapter when it is written.
        if (expected || path !== FEED) expect(res.headers.get('content-length'), label).toBe(String(raw.length));
        if (expected) expect(raw.length, label).toBeLessThan(identity.length);
        expect(decode(expected, raw).equals(identity), label).toBe(true);
      }
    });
  }

  it('a file with only a .gz sends gzip to a client asking br first; one with no variants sends identity without Vary', async () => {
    const gz = await get(GZIP_ONLY_JS, 'br, gzip');
    expect(gz.res.headers.get('content-encoding')).toBe('gzip');
    expect(gz.res.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(gz.raw).equals(dist.files.get(GZIP_ONLY_JS)!)).toBe(true);
    const small = await get(SMALL_JS, 'br, gzip');
    expect(small.res.headers.get('content-encoding')).toBeNull();
    expect(small.res.headers.get('vary')).toBeNull();
  });

  it('leaves a small JSON answer alone', async () => {
    const { res, raw } = await get('/api/health', 'gzip, deflate, br');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toMatch(/accept-encoding/i);
    expect(JSON.parse(raw.toString())).toEqual({ status: 'ok' });
  });

  it('never compresses media, even a text file', async () => {
    const key = `${alice.id}/playlists/master.m3u8`;
    const playlist = Buffer.from('#EXTM3U\n' + Array.from({ length: 200 }, (_, i) => `#EXTINF:4.0,\nseg_${i}.m4s\n`).join(''));
    await t.deps.media.putOnce(key, playlist, 'application/vnd.apple.mpegurl');
    const { res, raw } = await get(`/media/${key}`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(raw.equals(playlist)).toBe(true);
  });

  describe('over a real connection', () => {
    let srv: LoopbackServer;
    beforeAll(async () => {
      srv = await listen(t);
    });
    afterAll(async () => {
      await srv?.close();
    });

    it('Node fetch decodes the br feed page and the gzip asset to what identity sends', async () => {
      const identity = await (await fetch(`${srv.url}${FEED}`, { headers: { authorization: `Bearer ${alice.token}`, 'accept-encoding': 'identity' } })).text();
      const br = await fetch(`${srv.url}${FEED}`, { headers: { authorization: `Bearer ${alice.token}`, 'accept-encoding': 'br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(await br.text()).toBe(identity);
      const js = await fetch(`${srv.url}${JS}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(js.headers.get('content-encoding')).toBe('gzip');
      expect(Buffer.from(await js.arrayBuffer()).equals(dist.files.get(JS)!)).toBe(true);
    });

    it('the event stream is not compressed and delivers its first event at once', async () => {
      const ctl = new AbortController();
      const res = await fetch(`${srv.url}/api/sync/events`, {
        headers: { authorization: `Bearer ${alice.token}`, 'accept-encoding': 'gzip, deflate, br' },
        signal: ctl.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('content-encoding')).toBeNull();
      const first = await new Promise<string>((resolve) => {
        void readSseEvents(res.body!, (e) => {
          resolve(e.event);
          ctl.abort();
        });
      });
      expect(first).toBe('ready');
    });
  });
});

const REAL_DIST = join(PROJECT_ROOT, 'dist/client');
const hasBuild = existsSync(join(REAL_DIST, 'routes.json'));

// The real build is made by the e2e project's globalSetup (or npm run build); this project does not
// build, so without one the test is reported as skipped.
describe.runIf(hasBuild)('the real build (dist/client)', () => {
  it('serves its precompressed page and entry script, decoding to the originals', async () => {
    const t = await createTestApp({ CLIENT_DIST: REAL_DIST });
    try {
      const page = await t.app.request('/', { headers: { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-encoding')).toBe('br');
      expect(page.headers.get('vary')).toBe('Accept-Encoding');
      const html = brotliDecompressSync(Buffer.from(await page.arrayBuffer()));
      expect(html.equals(readFileSync(join(REAL_DIST, 'index.html')))).toBe(true);
      expect(html.toString()).toContain('data-prerendered="/"');

      const entry = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(html.toString())?.[1];
      expect(entry).toBeTruthy();
      const original = readFileSync(join(REAL_DIST, entry!));
      for (const [accept, coding] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['identity', null],
      ] as const) {
        const res = await t.app.request(entry!, { headers: { 'accept-encoding': accept } });
        expect(res.headers.get('content-encoding'), accept).toBe(coding);
        expect(res.headers.get('cache-control'), accept).toBe('public, max-age=31536000, immutable');
        expect(decode(coding, Buffer.from(await res.arrayBuffer())).equals(original), accept).toBe(true);
      }
      expect((await t.app.request('/login', { headers: { accept: 'text/html' } })).status).toBe(200);
      expect((await t.app.request('/nope.js', { headers: { accept: 'text/html' } })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
