import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppEnv } from '../context';

/**
 * Serves the built PWA: hashed assets cached for a year, everything else revalidated, and any other
 * GET that wants HTML answered with index.html so deep links (/home, /rewards) work.
 */
export function mountClient(app: Hono<AppEnv>, clientDist: string): void {
  const indexFile = join(clientDist, 'index.html');
  if (!existsSync(indexFile)) return;
  const indexHtml = readFileSync(indexFile, 'utf8');

  app.use(
    '*',
    serveStatic({
      root: clientDist,
      onFound: (path, c) => {
        const immutable = path.includes('/assets/');
        c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  app.get('*', (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/api/') || path.startsWith('/files') || path.startsWith('/media/')) return next();
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });
}
