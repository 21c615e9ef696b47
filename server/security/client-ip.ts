import { isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from '../context';

/**
 * The client's address for per-IP limits. By default the TCP peer: anyone can send
 * X-Forwarded-For, so trusting it would let an attacker pick a fresh "IP" per request. Behind
 * reverse proxies, TRUST_PROXY_HOPS says how many there are: each appends the address it got the
 * request from, so the client is that many entries from the right of X-Forwarded-For + the peer.
 * What a client wrote further left is never read. Requests without a socket (in-process
 * app.request) share 'unknown'.
 */
export function clientIp(c: Context<AppEnv>): string {
  let peer: string;
  try {
    peer = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
  const hops = c.var.deps.config.trustProxyHops;
  if (hops === 0) return peer;
  return forwardedClient(c.req.header('x-forwarded-for'), peer, hops);
}

/** The address `hops` entries left of the peer in X-Forwarded-For, or the leftmost one a short chain has. */
export function forwardedClient(forwardedFor: string | undefined, peer: string, hops: number): string {
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    peer,
  ];
  const picked = chain[Math.max(0, chain.length - 1 - hops)]!;
  // A proxy that is not there (a direct request) leaves a client-written entry: still only ever one
  // address, so a malformed one falls back to the peer rather than becoming a free-form key.
  return isIP(picked) ? picked : peer;
}
