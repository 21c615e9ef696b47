import { isIP } from 'node:net';
import { DNS_NAME, hostAllowed, isLocalhost } from './host-names';
import { isPublicAddress } from './special-addresses';

// A push endpoint is a URL a member hands the server, which then POSTs to it (docs/notifications.md,
// "Where pushes go"). It is parsed once, here, with the WHATWG parser, and the sender connects to
// the host and port of that parse and nothing else: web-push's own request re-parsed the string with
// the legacy parser, which read `https://127.0.0.77;.evil.com/x` as 127.0.0.77.

/** The push services browsers subscribe with: Chrome (FCM), Firefox (autopush), Safari, Edge (WNS). */
export const BROWSER_PUSH_HOSTS: readonly string[] = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'];

export interface EndpointPolicy {
  /** PUSH_ALLOW_INSECURE_ENDPOINTS (tests): http, any address and any port, still parsed and connected to as below. */
  allowInsecure: boolean;
  /** PUSH_ENDPOINT_HOSTS: hosts allowed besides BROWSER_PUSH_HOSTS; `*` is any public host. */
  extraHosts: readonly string[];
}

/** Where a push goes: exactly what the one parse found. */
export interface PushTarget {
  protocol: 'https:' | 'http:';
  /** A name, or an address without brackets. */
  host: string;
  port: number;
  /** Path and query, as sent. */
  path: string;
  /** The VAPID audience (RFC 8292): the endpoint's origin. */
  origin: string;
  /** True when `host` is a name, which the sender's lookup resolves and checks at connect time. */
  isName: boolean;
}

export type EndpointVerdict = { ok: true; target: PushTarget } | { ok: false; problem: string };

const refuse = (problem: string): EndpointVerdict => ({ ok: false, problem });
const NOT_PUBLIC = 'The push endpoint must be a public push service.';

/** Why the endpoint is not even a URL (control characters, which the URL parser would silently drop, included), or null. */
export function endpointSyntaxProblem(endpoint: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(endpoint)) return 'The push endpoint must not contain control characters.';
  return URL.canParse(endpoint) ? null : 'The push endpoint is not a URL.';
}

/** The host's own problem: not a name or address the parsers agree on, or not one we may call. */
function hostProblem(host: string, policy: EndpointPolicy): string | null {
  const address = isIP(host) ? host : null;
  // Anything else the WHATWG parser lets through (`;`, `*`, `$`, `%`, `_`...) is where the legacy
  // parser disagrees with it; a push service's name never needs it.
  if (!address && !DNS_NAME.test(host)) return 'The push endpoint’s host is not a valid host name.';
  if (policy.allowInsecure) return null;
  if (address) return isPublicAddress(address) && policy.extraHosts.includes('*') ? null : NOT_PUBLIC;
  if (isLocalhost(host)) return NOT_PUBLIC;
  return hostAllowed(host, [...BROWSER_PUSH_HOSTS, ...policy.extraHosts]) ? null : NOT_PUBLIC;
}

/** Whether the endpoint may be used, and where exactly a push to it goes. */
export function checkEndpoint(endpoint: string, policy: EndpointPolicy): EndpointVerdict {
  const syntax = endpointSyntaxProblem(endpoint);
  if (syntax) return refuse(syntax);
  const url = new URL(endpoint);
  // A browser hands over the URL as its parser wrote it; any other spelling is what parsers disagree on.
  if (url.href !== endpoint) return refuse('The push endpoint must be written as a browser gives it.');
  if (url.username || url.password) return refuse('The push endpoint must not carry credentials.');
  const insecureOk = policy.allowInsecure && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !insecureOk) return refuse('The push endpoint must be an https URL.');
  if (url.port && !policy.allowInsecure) return refuse('The push endpoint must use the https port (443).');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const problem = hostProblem(host, policy);
  if (problem) return refuse(problem);
  const protocol = url.protocol === 'http:' ? 'http:' : 'https:';
  return {
    ok: true,
    target: {
      protocol,
      host,
      port: url.port ? Number(url.port) : protocol === 'https:' ? 443 : 80,
      path: `${url.pathname}${url.search}`,
      origin: url.origin,
      isName: !isIP(host),
    },
  };
}

/** Why the endpoint is refused, or null when it may be used. */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): string | null {
  const verdict = checkEndpoint(endpoint, policy);
  return verdict.ok ? null : verdict.problem;
}

/** The policy of a configuration. */
export function endpointPolicy(push: { allowInsecureEndpoints: boolean; endpointHosts: readonly string[] }): EndpointPolicy {
  return { allowInsecure: push.allowInsecureEndpoints, extraHosts: push.endpointHosts };
}
