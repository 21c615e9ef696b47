import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// A push endpoint is a URL the server will POST to: a member could name an internal address
// (server-side request forgery). Only https to a public host is accepted, unless the configuration
// allows a local push service (PUSH_ALLOW_INSECURE_ENDPOINTS, tests only).

/**
 * Addresses that are not the public internet: "this network", private (RFC 1918), CGNAT (RFC 6598),
 * loopback, link-local; IPv6 unspecified, loopback, unique local, link-local and NAT64 (RFC 6052).
 * node's BlockList also matches an IPv4-mapped IPv6 address (::ffff:7f00:1) by its IPv4 rule.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['64:ff9b::', 96],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Why the endpoint is not even a URL (control characters, which the URL parser would silently drop, included), or null. */
export function endpointSyntaxProblem(endpoint: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(endpoint)) return 'The push endpoint must not contain control characters.';
  return URL.canParse(endpoint) ? null : 'The push endpoint is not a URL.';
}

/** Why the endpoint is refused, or null when it may be used. */
export function endpointProblem(endpoint: string, allowInsecure: boolean): string | null {
  const syntax = endpointSyntaxProblem(endpoint);
  if (syntax) return syntax;
  const url = new URL(endpoint);
  if (url.username || url.password) return 'The push endpoint must not carry credentials.';
  if (allowInsecure) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'The push endpoint must be an https URL.';
  if (url.protocol !== 'https:') return 'The push endpoint must be an https URL.';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'The push endpoint must be a public address.';
  const family = isIP(host);
  if (family && NOT_PUBLIC.check(host, family === 4 ? 'ipv4' : 'ipv6')) return 'The push endpoint must be a public address.';
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup that refuses an address that is not public: a public name may resolve to an internal
 * address (or be made to, later: DNS rebinding), which the check of the URL cannot see. Used by
 * the sender's agent, so the address connected to is the one checked.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => NOT_PUBLIC.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'));
    if (refused) {
      const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused.address}, which is not a public address`);
      e.code = 'EPUSHADDRESS';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
