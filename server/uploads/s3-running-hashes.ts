import { createHash, type Hash } from 'node:crypto';

/** Uploads followed at once: an upload whose PATCHes went elsewhere, or that expired, is dropped first. */
const FOLLOWED = 1000;

interface State {
  hash: Hash;
  /** How many leading bytes of the upload the hash has seen. */
  covered: number;
}

/** One PATCH's view of its upload's running hash: the bytes it passes on, then what the store wrote. */
export interface HashedWrite {
  update(chunk: Buffer): void;
  /** After the store's write: the state is kept only if it covers exactly the `offset` the write reached. */
  settle(offset: number): void;
  /** The write failed: what it stored is unknown, so the state goes. */
  fail(): void;
}

/**
 * The sha256 of each S3 upload, fed with the bytes of its PATCHes as they pass through this process
 * on their way into the bucket, so the finish need not read the object back (s3-upload-area.ts).
 * Consecutive PATCHes of one upload may reach different instances, and node's crypto cannot hand a
 * hash state on, so a state exists only where every byte so far went through this process: one
 * that a PATCH elsewhere skipped ahead of is dropped at the next PATCH here, and the finish falls
 * back to the read-back. The hashing runs on the receiving thread: about 4 ms per 5 MiB PATCH
 * (docs/uploads.md), less than the round trip it saves.
 */
export class S3RunningHashes {
  private readonly states = new Map<string, State>();

  /** A PATCH at `offset`: it continues the state if that covers exactly the bytes before it (or starts one at 0). */
  begin(id: string, offset: number): HashedWrite | null {
    let state = this.states.get(id);
    this.states.delete(id);
    if (offset === 0) state = { hash: createHash('sha256'), covered: 0 };
    if (!state || state.covered !== offset) return null;
    const running = state;
    return {
      update: (chunk) => {
        running.hash.update(chunk);
        running.covered += chunk.length;
      },
      settle: (reached) => {
        if (running.covered === reached) this.keep(id, running);
      },
      fail: () => this.states.delete(id),
    };
  }

  /** The sha256 (hex) of the upload's `size` bytes when this process saw all of them, else null; the state goes either way. */
  digest(id: string, size: number): string | null {
    const state = this.states.get(id);
    this.states.delete(id);
    return state && state.covered === size ? state.hash.digest('hex') : null;
  }

  forget(id: string): void {
    this.states.delete(id);
  }

  private keep(id: string, state: State): void {
    this.states.delete(id);
    this.states.set(id, state);
    if (this.states.size > FOLLOWED) this.states.delete(this.states.keys().next().value as string);
  }
}
