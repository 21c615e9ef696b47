import type { Context, Hono } from 'hono';
import type { AppEnv } from '../context';
import { readClientLayout, type ClientLayout } from './client-layout';
import { fileUnder, isFile, sendFile } from './static-files';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Paths the server's own routers answer; a miss there is their JSON 404, never a page. */
const isServerPath = (path: string) => path.startsWith('/api/') || path.startsWith('/files') || path.startsWith('/media/');
/** `/x.js`, `/assets/a.css`, `/.well-known/y.json`: a request for a file, not for a page. */
const hasExtension = (path: string) => /\.[A-Za-z0-9]+$/.test(path);
const wantsHtml = (c: Context) => c.req.header('accept')?.includes('text/html') === true;
/** `/login/` is `/login`. */
const routeOf = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

const notFound = (c: Context) => c.text('Not found.', 404, { 'Cache-Control': REVALIDATE });

async function answer(c: Context, layout: ClientLayout): Promise<Response> {
  const path = c.req.path;
  const route = routeOf(path);
  const page = layout.pages.get(route);
  if (page) return (await sendFile(c, page, { cacheControl: REVALIDATE })) ?? notFound(c);
  if (layout.routes?.has(route)) return (await sendFile(c, layout.shell, { cacheControl: REVALIDATE })) ?? notFound(c);

  const file = fileUnder(layout.root, path);
  if (file && isFile(file)) {
    // Vite names everything under /assets/ by its content hash: a new build means new names.
    const sent = await sendFile(c, file, { cacheControl: path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE });
    if (sent) return sent;
  }
  // A missing script or stylesheet must fail as one: the shell in its place is parsed as JS/CSS.
  if (hasExtension(path)) return notFound(c);
  // An unknown page: the shell renders the client's Not Found page, with the status saying so.
  // Without routes.json (an older build) every page path is the shell's, as before.
  if (!layout.routes) return (await sendFile(c, layout.shell, { cacheControl: REVALIDATE })) ?? notFound(c);
  if (wantsHtml(c)) return (await sendFile(c, layout.shell, { cacheControl: REVALIDATE, status: 404 })) ?? notFound(c);
  return notFound(c);
}

/**
 * Serves the built PWA (docs/pwa.md): the prerendered public pages, the app shell for the client's
 * other routes, the build's files (precompressed variants by Accept-Encoding), and 404 for the rest.
 * Hashed assets are cached for a year; everything else is revalidated.
 */
export function mountClient(app: Hono<AppEnv>, clientDist: string): void {
  const layout = readClientLayout(clientDist);
  if (!layout) return;
  app.get('*', (c, next) => (isServerPath(c.req.path) ? next() : answer(c, layout)));
}
