import { isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from '../context';

/**
 * The key of the client's address for per-IP limits (ipLimitKey below). By default the TCP peer:
 * anyone can send X-Forwarded-For, so trusting it would let an attacker pick a fresh "IP" per request. Behind
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
  return ipLimitKey(hops === 0 ? peer : forwardedClient(c.req.header('x-forwarded-for'), peer, hops));
}

/**
 * What a per-IP limit counts by: an IPv4 address as it is, an IPv6 address by its /64. A /64 is the
 * least a provider hands one line, and its holder picks any of its 2^64 addresses at will: keyed by
 * the full address, each request could come from a fresh one. An IPv4-mapped address (`::ffff:192.0.2.1`, a dual-stack socket's
 * IPv4 peer) is that IPv4 address. Anything else (`unknown`) is its own key.
 */
export function ipLimitKey(address: string): string {
  const groups = isIP(address) === 6 ? ipv6Groups(address) : undefined;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a zone and a trailing dotted IPv4 part allowed). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
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
