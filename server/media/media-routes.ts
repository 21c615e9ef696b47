import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { errorBody } from '../http/errors';
import { mediaPath } from './storage';
import { parseRange } from './range';
import { MEDIA_KEY_RE, mediaContentType } from './urls';

// Names are unique per upload ({timestamp}-...), so a URL's bytes never change: cache for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET/HEAD /media/{userId}/{file}: the stored video and poster files, with single byte ranges
 * (players seek, the service worker caches). Media is public like the original's bucket, but only
 * keys of the stored shape are served, so nothing outside the media folder is reachable.
 */
export function mediaRouter() {
  const router = new Hono<AppEnv>();
  const notFound = () =>
    new Response(JSON.stringify(errorBody('not_found', 'No such media file.')), {
      status: 404,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    });

  router.on(['GET', 'HEAD'], '/*', async (c) => {
    // The raw (still encoded) path: an encoded slash, dot-dot or NUL never matches the key shape.
    const rawPath = new URL(c.req.url).pathname;
    const key = rawPath.replace(/^\/media\//, '');
    if (!MEDIA_KEY_RE.test(key) || key.split('/').some((s) => s === '.' || s === '..')) return notFound();
    const { mediaDir } = c.var.deps.config;
    let file: string;
    let size: number;
    try {
      file = mediaPath(mediaDir, key);
      const st = await stat(file);
      if (!st.isFile()) return notFound();
      size = st.size;
    } catch {
      return notFound();
    }

    const headers: Record<string, string> = {
      'Content-Type': mediaContentType(key),
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': IMMUTABLE,
    };
    const range = parseRange(c.req.header('range'), size);
    if (range.kind === 'unsatisfiable') {
      return new Response(JSON.stringify(errorBody('range_not_satisfiable', range.reason)), {
        status: 416,
        headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Range': `bytes */${size}` },
      });
    }
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : size - 1;
    const length = size === 0 ? 0 : end - start + 1;
    headers['Content-Length'] = String(length);
    if (range.kind === 'partial') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    const status = range.kind === 'partial' ? 206 : 200;
    if (c.req.method === 'HEAD' || length === 0) return new Response(null, { status, headers });
    const body = Readable.toWeb(createReadStream(file, { start, end, highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>;
    return new Response(body, { status, headers });
  });
  return router;
}
