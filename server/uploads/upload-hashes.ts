import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** An upload's running sha256: it covers exactly the file's first `offset` bytes. */
export interface HashState {
  hash: Hash;
  offset: number;
}

/** Most uploads a process hashes at once; beyond it the oldest state is dropped (and recomputed later). */
const MAX_STATES = 10_000;

/** Feeds `hash` with bytes [from, to) of a file. */
async function hashRange(hash: Hash, path: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  for await (const chunk of createReadStream(path, { start: from, end: to - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

/**
 * The sha256 of each upload, computed while its bytes arrive, so finishing a 100 MiB upload does
 * not read the file again. Only kept in memory: after a restart, or whenever a state does not
 * match the file exactly, the missing part is hashed from the file, which is the truth.
 */
export class UploadHashes {
  private readonly states = new Map<string, HashState>();

  /** A new, empty upload. */
  start(id: string): void {
    this.put(id, { hash: createHash('sha256'), offset: 0 });
  }

  /**
   * The state for a write starting at `offset`, caught up from the file if it is behind or gone
   * (a restarted server, a failed write). Out of the map until `settle`, so nothing else uses it.
   */
  async begin(id: string, path: string, offset: number): Promise<HashState> {
    let state = this.states.get(id);
    this.states.delete(id);
    if (!state || state.offset > offset) state = { hash: createHash('sha256'), offset: 0 };
    await hashRange(state.hash, path, state.offset, offset);
    state.offset = offset;
    return state;
  }

  /** After a write: the state is kept only if it covers exactly the bytes the file has. */
  async settle(id: string, path: string, state: HashState): Promise<void> {
    const size = await stat(path).then((s) => s.size, () => -1);
    if (size === state.offset) this.put(id, state);
  }

  /** The finished upload's sha256 (hex): from the running state, or from the file where it falls short. */
  async digest(id: string, path: string, size: number): Promise<string> {
    const state = await this.begin(id, path, size);
    return state.hash.digest('hex');
  }

  /** How many leading bytes of the upload the running hash covers (null: none kept, recomputed when needed). */
  covered(id: string): number | null {
    return this.states.get(id)?.offset ?? null;
  }

  forget(id: string): void {
    this.states.delete(id);
  }

  private put(id: string, state: HashState): void {
    this.states.delete(id);
    this.states.set(id, state);
    if (this.states.size > MAX_STATES) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
  }
}
