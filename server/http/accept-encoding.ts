/** A content coding this server can send (RFC 9110 §8.4.1), or none. */
export type ContentCoding = 'br' | 'gzip';
export type Negotiated = ContentCoding | 'identity';

/** What a request said about one coding: its weight, or that it was not named. */
interface Weights {
  named: Map<string, number>;
  /** The weight of `*`, which covers every coding the request did not name. */
  star: number | undefined;
}

const QVALUE = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

function parse(header: string): Weights {
  const named = new Map<string, number>();
  let star: number | undefined;
  for (const element of header.split(',')) {
    const [rawCoding = '', ...params] = element.split(';');
    const coding = rawCoding.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const param of params) {
      const p = param.trim().replace(/\s*=\s*/, '=');
      if (!/^q=/i.test(p)) continue;
      // An invalid weight (q=2, q=abc) makes the element unusable rather than a guess.
      const m = QVALUE.exec(p);
      weight = m ? Number(m[1]) : Number.NaN;
    }
    if (Number.isNaN(weight)) continue;
    // "x-gzip" is gzip (RFC 9110 §8.4.1.3).
    const name = coding === 'x-gzip' ? 'gzip' : coding;
    if (name === '*') star = weight;
    else named.set(name, Math.max(weight, named.get(name) ?? 0));
  }
  return { named, star };
}

const weightOf = (w: Weights, coding: string): number => w.named.get(coding) ?? w.star ?? 0;

/**
 * The coding to answer with, following RFC 9110 §12.5.3: the highest weight among `offered` (listed
 * in the server's order of preference, which breaks ties), `*` standing for any coding the request
 * did not name, q=0 meaning "not acceptable". Identity is chosen when the request weighs it above
 * every offered coding it accepts.
 *
 * Two choices the RFC leaves open:
 * - No header at all: the RFC lets the server pick any coding, but clients that send none (curl,
 *   scripts, load generators) are exactly the ones that do not decode, so they get identity.
 * - Nothing acceptable, identity refused too (`identity;q=0` or `*;q=0`): identity is sent anyway
 *   (the RFC's alternative is a 415/406 that helps no one; nginx and Apache do the same).
 */
export function negotiateEncoding(header: string | undefined | null, offered: readonly ContentCoding[]): Negotiated {
  if (!header) return 'identity';
  const weights = parse(header);
  let best: Negotiated = 'identity';
  let bestWeight = 0;
  for (const coding of offered) {
    const w = weightOf(weights, coding);
    if (w > bestWeight) {
      best = coding;
      bestWeight = w;
    }
  }
  // Identity is acceptable unless refused; unnamed, it ranks below any accepted coding.
  const identity = weights.named.get('identity');
  if (best !== 'identity' && identity !== undefined && identity > bestWeight) return 'identity';
  return best;
}

/** Adds Accept-Encoding to a Vary value (kept as is when it is `*` or already names it). */
export function varyWithAcceptEncoding(vary: string | null): string {
  if (!vary) return 'Accept-Encoding';
  const names = vary.split(',').map((v) => v.trim().toLowerCase());
  if (names.includes('*') || names.includes('accept-encoding')) return vary;
  return `${vary}, Accept-Encoding`;
}
