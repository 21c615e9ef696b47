/** Seeds for the reliability runs: big enough for real indexes, small enough to seed in seconds. */
export const FAULTS_SEED = { users: 200, videos: 2_000, likes: 10_000, comments: 3_000, views: 10_000 };
export const CI_SEED = { users: 40, videos: 200, likes: 800, comments: 200, views: 800 };

/** Seconds of the load run: FAULTS_LOAD_SECONDS, at most 60. */
export function loadSeconds(fallback: number): number {
  const n = Number(process.env.FAULTS_LOAD_SECONDS ?? fallback);
  return Math.min(60, Math.max(1, Number.isFinite(n) ? n : fallback));
}
