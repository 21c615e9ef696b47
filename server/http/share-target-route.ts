import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { drainBody } from './body-limit';

/**
 * Read and dropped at most: a shared video (the upload limit, 120 MiB) and its form. Past this the
 * answer goes out with `Connection: close` and the rest is not read.
 */
export const SHARE_DRAIN_BYTES = 128 * 1024 * 1024;

/**
 * POST /share-target when no service worker answered it (docs/pwa.md, "Share into Vidi": the
 * first visit, or a worker not yet installed): the shared file cannot be kept by the server, so the
 * member is sent to the app (303, which a browser follows with a GET). The body is read and dropped
 * chunk by chunk, never held: answering before it is read would reset the connection under a
 * sender still sending (server/http/body-limit.ts).
 */
export function shareTargetRouter() {
  const router = new Hono<AppEnv>();
  router.post('/share-target', async (c) => {
    const body = c.req.raw.body;
    const drained = body ? await drainBody(body.getReader(), SHARE_DRAIN_BYTES) : true;
    return c.body(null, 303, { Location: '/home', 'Cache-Control': 'no-store', ...(drained ? {} : { Connection: 'close' }) });
  });
  return router;
}
