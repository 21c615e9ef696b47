// Host names of push services: what an endpoint's host and an entry of PUSH_ENDPOINT_HOSTS may be
// (docs/notifications.md, "Where pushes go"). No imports: server/config.ts checks the setting with it.

/** A DNS host name as the URL parser writes it: lowercase labels of letters, digits and inner hyphens, no trailing dot. */
export const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** localhost and its subdomains (RFC 6761) are this machine whatever DNS says. */
export function isLocalhost(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/** One entry of PUSH_ENDPOINT_HOSTS: `*`, a name, or `*.` and a name of two labels or more; never an address or localhost. */
export function isPushHostRule(rule: string): boolean {
  if (rule === '*') return true;
  const wildcard = rule.startsWith('*.');
  const name = wildcard ? rule.slice(2) : rule;
  if (!DNS_NAME.test(name) || /^[0-9.]+$/.test(name) || isLocalhost(name)) return false;
  return !wildcard || name.includes('.');
}

/** Whether a host name is one of the rules: itself, under a `*.` rule, or anything with `*`. */
export function hostAllowed(host: string, rules: readonly string[]): boolean {
  return rules.some((rule) => rule === '*' || rule === host || (rule.startsWith('*.') && host.endsWith(rule.slice(1))));
}
