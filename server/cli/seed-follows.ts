import { pickDistinct } from './seed-random';

// The seed's follow graph (npm run seed -- --follows-per-member N): each member follows N distinct
// others, drawn uniformly, so the Following feed of any member fans out to N creators
// (docs/decisions/0022-following-feed-on-read.md) and the counters match the rows.

export interface FollowGraph {
  perMember: number;
  /** Member i follows followees[i * perMember …], ascending: the rows arrive in primary-key order. */
  followees: Uint32Array;
  followers: Uint32Array;
}

export function followGraph(users: number, perMember: number, rand: () => number): FollowGraph {
  const followees = new Uint32Array(users * perMember);
  const followers = new Uint32Array(users);
  if (!perMember) return { perMember, followees, followers };
  const perm = new Uint32Array(users).map((_, i) => i);
  for (let i = 0; i < users; i++) {
    // One more than needed, so there are enough once the member is dropped from their own picks.
    const picked = Array.from(pickDistinct(perm, perMember + 1, rand)).filter((j) => j !== i);
    const mine = picked.slice(0, perMember);
    mine.forEach((j, k) => {
      followees[i * perMember + k] = j;
      followers[j]!++;
    });
  }
  return { perMember, followees, followers };
}
