/** mulberry32 (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c): small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of a randomized run: the environment variable `name` when it holds an integer (to replay
 * a failed run), else a fresh one. Printed either way, so a failure's log says how to replay it.
 */
export function runSeed(name: string, label: string): number {
  const given = Number(process.env[name]);
  const seed = process.env[name] && Number.isInteger(given) ? given >>> 0 : Math.floor(Math.random() * 2 ** 32);
  console.log(`[seed] ${label}: ${seed} (replay with ${name}=${seed})`);
  return seed;
}
