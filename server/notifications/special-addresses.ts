import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// Where the push sender may connect (docs/notifications.md, "Where pushes go"): the public unicast
// internet only. Everything in IANA's special-purpose registries (RFC 6890 and its updates) is
// refused: a push endpoint is a URL a member hands the server, so an internal address there would
// make the server call inside its own network (server-side request forgery).

/** IANA IPv4 Special-Purpose Address Registry, plus multicast (224/4), which is no unicast host either. */
const SPECIAL_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // direct delegation AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 (limited broadcast)
];

/**
 * IPv6: only global unicast (2000::/3) can be a public host; inside it, the special-purpose blocks.
 * Outside it are ::/128, ::1, the IPv4-compatible (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d) and
 * IPv4-translated (::ffff:0:a.b.c.d) forms, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard-only
 * (100::/64), unique local (fc00::/7), site-local (fec0::/10), link-local and multicast.
 */
const SPECIAL_V6_IN_GLOBAL: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT...
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address, 2002:7f00:1:: is loopback's
  ['3fff::', 20], // documentation
];

const special = new BlockList();
for (const [net, prefix] of SPECIAL_V4) special.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_V6_IN_GLOBAL) special.addSubnet(net, prefix, 'ipv6');
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/** Whether `address` (an IP literal, without brackets) is a public unicast address; anything else is false. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !special.check(address, 'ipv4');
  if (family === 6) return globalUnicastV6.check(address, 'ipv6') && !special.check(address, 'ipv6');
  return false;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A lookup for the sender's connections that answers only public addresses: a permitted name may
 * resolve to an internal address (or be made to, later: DNS rebinding), which no check of the URL
 * can see. The address it answers is the one the socket connects to. `resolve` is dns.lookup
 * unless a test supplies its own (which must answer for loopback names only).
 */
export function publicOnlyLookup(resolve: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, answer) => {
      if (err) return callback(err, []);
      const addresses = typeof answer === 'string' ? [{ address: answer, family: isIP(answer) }] : answer;
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      if (refused || !addresses[0]) {
        const e: NodeJS.ErrnoException = new Error(
          refused ? `${hostname} resolves to ${refused.address}, which is not a public address` : `${hostname} has no address`,
        );
        e.code = refused ? 'EPUSHADDRESS' : 'ENOTFOUND';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
