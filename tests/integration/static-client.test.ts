import { request as httpRequest } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClientLayout } from '#server/http/client-layout';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { listen, type LoopbackServer } from '../fixtures/tus-client';
import { CSS, JS, PAGES, SECRET, SHELL_ROUTES, writeClientDist, type ClientDist } from './client-dist';

const ORIGIN = 'https://vidi.example';
const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/**
 * Whether robots.txt lets a crawler (`*` group) fetch `path`, by RFC 9309 §2.2.2: the longest
 * matching rule wins, Allow on a tie, and a path no rule matches is allowed.
 */
function robotsAllow(robots: string, path: string): boolean {
  let best = { length: -1, allow: true };
  for (const line of robots.split('\n')) {
    const m = /^(allow|disallow):\s*(\S*)\s*$/i.exec(line);
    if (!m || !m[2] || !path.startsWith(m[2])) continue;
    const allow = m[1]!.toLowerCase() === 'allow';
    if (m[2].length > best.length || (m[2].length === best.length && allow)) best = { length: m[2].length, allow };
  }
  return best.allow;
}

/** The bytes a plain node:http client gets for a request path sent as is (fetch would normalise it). */
const rawGet = (url: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}/`, { path }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('the built client: pages, the shell and status codes', () => {
  let dist: ClientDist;
  let t: TestApp;
  beforeAll(async () => {
    dist = writeClientDist();
    t = await createTestApp({ CLIENT_DIST: dist.dir, PUBLIC_URL: ORIGIN });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist.root, { recursive: true, force: true });
  });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => t.app.request(path, { method, headers });

  it('answers each prerendered page with its own HTML, with or without a trailing slash', async () => {
    for (const path of [...Object.keys(PAGES), '/login/', '/admin/login/']) {
      const res = await get(path, HTML);
      const route = path.length > 1 ? path.replace(/\/$/, '') : path;
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toContain(`data-prerendered="${route}"`);
    }
  });

  it('answers the other client routes with the shell and 200', async () => {
    for (const path of [...SHELL_ROUTES, '/home/', '/reset-password']) {
      const res = await get(`${path}?token=abc`, HTML);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toContain('data-shell');
    }
  });

  it('answers an unknown page with the shell and 404 when HTML is wanted, plain text otherwise', async () => {
    for (const path of ['/nope', '/home/extra', '/admin/users', '/login/x']) {
      const page = await get(path, HTML);
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await page.text(), path).toContain('data-shell');

      const other = await get(path, { Accept: '*/*' });
      expect(other.status, path).toBe(404);
      expect(other.headers.get('content-type'), path).toMatch(/^text\/plain/);
    }
  });

  it('answers a missing file with a short plain 404, never the shell, even to a browser', async () => {
    for (const path of ['/missing.js', '/assets/gone-abc.css', '/favicon2.png', '/x.txt', '/assets/index-Ab12Cd34.js.map']) {
      const res = await get(path, HTML);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/plain/);
      const body = await res.text();
      expect(body.length, path).toBeLessThan(100);
      expect(body, path).not.toContain('<');
    }
  });

  it('leaves /api, /files and /media to their routers (a JSON 404, not a page)', async () => {
    for (const path of ['/api/nope', '/media/nope', '/api/videos/x/nope']) {
      const res = await get(path, HTML);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
    // tus answers its own paths (a GET of an upload that does not exist).
    const tus = await get('/files/nope', { ...HTML, 'Tus-Resumable': '1.0.0' });
    expect(await tus.text()).not.toContain('data-shell');
  });

  it('caches hashed assets for a year and revalidates everything else', async () => {
    const asset = await get(JS);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get(CSS)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const path of ['/sw.js', '/favicon.png', '/index.html', '/routes.json']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it('serves a binary file as it is, with its length and no Vary (it has no compressed variants)', async () => {
    const res = await get('/favicon.png', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(dist.files.get('/favicon.png')!)).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
  });

  it('answers HEAD with the headers of the variant GET would send and no body', async () => {
    const res = await get(JS, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    const get200 = await get(JS, { 'Accept-Encoding': 'br' });
    expect(res.headers.get('content-length')).toBe(String((await get200.arrayBuffer()).byteLength));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const page = await get('/login', HTML, 'HEAD');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('never serves a file outside the build, however the path is spelled', async () => {
    const srv: LoopbackServer = await listen(t);
    try {
      // fetch and app.request resolve dot segments before sending; a raw request line is sent as
      // written (and @hono/node-server resolves it, fileUnder refuses what is left: static-files.test.ts).
      expect(await (await get('/../secret.txt')).text()).not.toContain(SECRET);
      for (const path of [
        '/../secret.txt',
        '/%2e%2e/secret.txt',
        '/%2E%2E/secret.txt',
        '/assets/..%2f..%2fsecret.txt',
        '/..%5csecret.txt',
        '/./../secret.txt',
        '//../secret.txt',
        '/..\\secret.txt',
      ]) {
        const res = await rawGet(srv.url, path);
        expect(res.body, path).not.toContain(SECRET);
        expect(res.status, path).toBeGreaterThanOrEqual(400);
      }
      // The same raw client does reach a file that is inside.
      expect((await rawGet(srv.url, '/sw.js')).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});

describe('robots.txt and the sitemap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('robots.txt is plain text for every crawler: public pages in, member pages, the API, uploads and media out', async () => {
    const res = await t.app.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8$/i);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const robots = await res.text();
    const lines = robots.split('\n').filter(Boolean);
    expect(lines[0]).toBe('User-agent: *');
    // Only directives a robots.txt parser knows, one per line.
    for (const line of lines) expect(line).toMatch(/^(User-agent|Allow|Disallow|Sitemap): \S+$/);
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    for (const path of ['/', ...Object.keys(PAGES), '/login?verified=1', '/assets/index-Ab12Cd34.js']) expect(robotsAllow(robots, path), path).toBe(true);
    for (const path of [...SHELL_ROUTES, '/admin/users', '/api/videos', '/files/abc', '/media/u/v.mp4', '/reset-password?token=x']) {
      expect(robotsAllow(robots, path), path).toBe(false);
    }
  });

  it('the sitemap lists the pages worth a search result, as absolute URLs', async () => {
    const res = await t.app.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${ORIGIN}/`, `${ORIGIN}/login`, `${ORIGIN}/signup`]);
  });

  it('robots.txt also answers HEAD', async () => {
    const res = await t.app.request('/robots.txt', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

describe('a build without routes.json (older builds)', () => {
  let dist: ClientDist;
  let t: TestApp;
  beforeAll(async () => {
    dist = writeClientDist({ routesJson: false });
    t = await createTestApp({ CLIENT_DIST: dist.dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist.root, { recursive: true, force: true });
  });

  it('serves index.html for every page path with 200, as before, and still 404 for missing files', async () => {
    for (const path of ['/', '/home', '/anything/at/all']) {
      const res = await t.app.request(path, { headers: HTML });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('data-prerendered="/"');
    }
    expect((await t.app.request('/missing.js', { headers: HTML })).status).toBe(404);
  });
});

describe('a broken routes.json', () => {
  it('stops the start-up with a message naming the file', () => {
    const dist = writeClientDist();
    try {
      const manifest = join(dist.dir, 'routes.json');
      writeFileSync(manifest, JSON.stringify({ pages: { '/': '../secret.txt' }, shell: 'shell.html', routes: ['/'] }));
      expect(() => readClientLayout(dist.dir)).toThrow(/routes\.json: "\.\.\/secret\.txt" is not a file inside/);
      writeFileSync(manifest, '{"pages": {}}');
      expect(() => readClientLayout(dist.dir)).toThrow(/routes\.json is not a valid routes manifest/);
      writeFileSync(manifest, '{"pages": ');
      expect(() => readClientLayout(dist.dir)).toThrow(/routes\.json is not a valid routes manifest/);
    } finally {
      rmSync(dist.root, { recursive: true, force: true });
    }
  });
});
