import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The peer address of the TCP connection, for per-IP limits. Forwarding headers are deliberately
 * ignored: anyone can send X-Forwarded-For, so trusting it would let an attacker pick a fresh
 * "IP" per request. (Behind a reverse proxy every client shares the proxy's address; configure the
 * proxy's own limits then.) Requests without a socket (in-process app.request) share 'unknown'.
 */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
