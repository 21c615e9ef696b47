import { randomUUID } from 'node:crypto';

// Repeatable randomness for the seed: the same seed on the same database gives the same data.

/** mulberry32: small, fast, repeatable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sorted random UUIDs from the seeded generator: inserting in key order appends to the B-tree. */
export function sortedIds(n: number, rand: () => number): string[] {
  const ids: string[] = new Array(n);
  const hex = (bits: number) =>
    Math.floor(rand() * 2 ** bits)
      .toString(16)
      .padStart(bits / 4, '0');
  for (let i = 0; i < n; i++) {
    ids[i] = `${hex(32)}-${hex(16)}-4${hex(12)}-${(8 + Math.floor(rand() * 4)).toString(16)}${hex(12)}-${hex(24)}${hex(24)}`;
  }
  ids.sort();
  for (let i = 1; i < n; i++) if (ids[i] === ids[i - 1]) ids[i] = randomUUID();
  return ids.sort();
}

/**
 * Splits `total` over `n` buckets with a long tail (a few popular videos, many quiet ones), each
 * bucket at most `cap`.
 */
export function spread(total: number, n: number, cap: number, rand: () => number): Uint32Array {
  const out = new Uint32Array(n);
  if (!n || !total) return out;
  const w = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = -Math.log(1 - rand());
    w[i] = e * e;
    sum += w[i]!;
  }
  let given = 0;
  for (let i = 0; i < n; i++) {
    out[i] = Math.min(cap, Math.floor((w[i]! / sum) * total));
    given += out[i]!;
  }
  // Hand out the rounding remainder round-robin from a random start, respecting the cap.
  let i = Math.floor(rand() * n);
  while (given < total) {
    if (out[i]! < cap) {
      out[i]!++;
      given++;
    }
    i = (i + 1) % n;
  }
  return out;
}

/** k distinct indexes below n, ascending: a partial Fisher-Yates over a reusable permutation. */
export function pickDistinct(perm: Uint32Array, k: number, rand: () => number): Uint32Array {
  const n = perm.length;
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rand() * (n - i));
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return perm.slice(0, k).sort();
}
