import { isIP } from 'node:net';

// A push endpoint is a URL the server will POST to: a member could name an internal address
// (server-side request forgery). Only https to a public host is accepted, unless the configuration
// allows a local push service (PUSH_ALLOW_INSECURE_ENDPOINTS, tests only).

/** IPv4 ranges that are not the public internet: loopback, private (RFC 1918), link-local, CGNAT, "this network". */
function isPrivateIPv4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isPrivateIPv6(ip: string): boolean {
  const v = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v)?.[1];
  if (mapped) return isPrivateIPv4(mapped);
  // Loopback, unspecified, unique local (fc00::/7), link-local (fe80::/10).
  return v === '::1' || v === '::' || /^f[cd]/.test(v) || /^fe[89ab]/.test(v);
}

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
  if ((family === 4 && isPrivateIPv4(host)) || (family === 6 && isPrivateIPv6(host))) return 'The push endpoint must be a public address.';
  return null;
}
