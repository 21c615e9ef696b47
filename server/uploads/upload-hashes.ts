import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** How far an upload's running sha256 has got: it covers exactly the file's first `offset` bytes. */
interface HashState {
  hash: Hash;
  offset: number;
}

/** A write in progress: the running state plus copies of it at the last chunk boundaries. */
export interface HashWrite {
  /** Feeds one chunk, in file order. */
  update(chunk: Buffer): void;
  readonly state: HashState;
  readonly marks: HashState[];
}

/**
 * A write cut off mid-way (the client's connection dropped) may leave fewer bytes in the file than
 * were hashed: chunks still queued for the disk are dropped. Copies of the state at recent chunk
 * boundaries (a copy costs far less than hashing the chunk) let the state be kept anyway.
 */
const MARKS = 64;

/** Most uploads a process hashes at once; beyond it the oldest state is dropped (and recomputed later). */
const MAX_STATES = 10_000;

/** Feeds `hash` with bytes [from, to) of a file. */
async function hashRange(hash: Hash, path: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  for await (const chunk of createReadStream(path, { start: from, end: to - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

/**
 * The sha256 of each upload, computed while its bytes arrive, so finishing a 100 MiB upload does
 * not read the file again. Only kept in memory: after a restart (or any doubt about what a state
 * covers) the missing part is hashed from the file, which is the truth. A state only ever covers
 * bytes that are on disk: a write that fails part-way keeps it only when the file ends exactly
 * where the hashed bytes do.
 */
export class UploadHashes {
  private readonly states = new Map<string, HashState>();

  /** A new, empty upload. */
  start(id: string): void {
    this.put(id, { hash: createHash('sha256'), offset: 0 });
  }

  /**
   * Starts a write at `offset`: the state caught up from the file if it is behind or gone (a
   * restarted server, a cut write). Out of the map until `settle`, so nothing else uses it.
   */
  async begin(id: string, path: string, offset: number): Promise<HashWrite> {
    const state = await this.take(id, path, offset);
    const marks: HashState[] = [{ hash: state.hash.copy(), offset }];
    return {
      state,
      marks,
      update(chunk) {
        state.hash.update(chunk);
        state.offset += chunk.length;
        marks.push({ hash: state.hash.copy(), offset: state.offset });
        if (marks.length > MARKS) marks.shift();
      },
    };
  }

  /** After a write: keeps the state (or the copy) that covers exactly the bytes the file has. */
  async settle(id: string, path: string, write: HashWrite): Promise<void> {
    const size = await stat(path).then((s) => s.size, () => -1);
    const exact = write.state.offset === size ? write.state : write.marks.find((m) => m.offset === size);
    if (exact) this.put(id, exact);
  }

  private async take(id: string, path: string, offset: number): Promise<HashState> {
    let state = this.states.get(id);
    this.states.delete(id);
    if (!state || state.offset > offset) state = { hash: createHash('sha256'), offset: 0 };
    await hashRange(state.hash, path, state.offset, offset);
    state.offset = offset;
    return state;
  }

  /** The finished upload's sha256 (hex): from the running state, or from the file where it falls short. */
  async digest(id: string, path: string, size: number): Promise<string> {
    const state = await this.take(id, path, size);
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
