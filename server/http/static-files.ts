import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { getMimeType } from 'hono/utils/mime';
import { negotiateEncoding, type ContentCoding } from './accept-encoding';

/** The precompressed files the build writes beside a file (scripts/build/precompress-plugin.ts), best first. */
const VARIANTS: ReadonlyArray<readonly [ContentCoding, string]> = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

export const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/**
 * The file under `root` that a request path names, or null when the path could reach outside it
 * or names nothing a build writes. @hono/node-server hands the request line's path over as sent
 * (only decodeURI'd), so `/../x` and `/%2e%2e/x` arrive here unnormalised.
 */
export function fileUnder(root: string, urlPath: string): string | null {
  if (/[%\\\0]|\/\/|(?:^|\/)\.\.?(?:\/|$)/.test(urlPath)) return null;
  const file = join(root, urlPath);
  return file.startsWith(root + sep) ? file : null;
}

export interface SendOptions {
  cacheControl: string;
  /** The status of a whole answer (the app shell is sent with 404 for unknown paths). */
  status?: 200 | 404;
}

/**
 * Sends `file`, or the `.br`/`.gz` beside it that the request's Accept-Encoding prefers, through
 * serveStatic (HEAD, ranges, Content-Length and Last-Modified of what is sent). serveStatic's own
 * `precompressed` option compares raw header tokens (`br;q=1`, `*` and `GZIP` get identity) and
 * sets Vary only on compressed answers, so the choice is made here. Null when the file is gone.
 */
export async function sendFile(c: Context, file: string, options: SendOptions): Promise<Response | null> {
  const offered = VARIANTS.filter(([, ext]) => isFile(file + ext));
  const coding = negotiateEncoding(
    c.req.header('accept-encoding'),
    offered.map(([name]) => name),
  );
  const variant = offered.find(([name]) => name === coding);
  const sent = await serveStatic({ path: variant ? file + variant[1] : file })(c, async () => {});
  if (!sent) return null;
  const headers = new Headers(sent.headers);
  headers.set('Content-Type', getMimeType(file) ?? 'application/octet-stream');
  headers.set('Cache-Control', options.cacheControl);
  if (variant) headers.set('Content-Encoding', variant[0]);
  // Also on the identity answer: a shared cache must not hand it to a client that takes br, nor br
  // to one that cannot read it.
  if (offered.length > 0) headers.set('Vary', 'Accept-Encoding');
  const status = sent.status === 200 && options.status ? options.status : sent.status;
  return new Response(sent.body, { status, headers });
}
