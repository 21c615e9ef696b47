import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { HASH_WORKER_SOURCE } from './hash-worker-source';

/** One ring slot: a PATCH writes and hashes its body one slot (at most this many bytes) at a time. */
export const SLOT_BYTES = 1 << 20;
/**
 * Slots per process: at most this many MiB are written or queued for hashing at once; a writer
 * that finds none free waits (bounded memory, and backpressure when hashing falls behind).
 */
const SLOTS = 16;

/** A slot of the ring shared with the hashing thread; `bytes` is a view of it, nothing is copied. */
export interface Slot {
  readonly index: number;
  readonly bytes: Buffer;
}

type Op = 'start' | 'begin' | 'update' | 'settle' | 'digest' | 'covered' | 'forget';

/** Feeds `hash` with bytes [from, to) of a file. */
async function hashRange(hash: Hash, path: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  for await (const chunk of createReadStream(path, { start: from, end: to - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

/**
 * The sha256 of each upload, computed while its bytes arrive, so finishing a 100 MiB upload does
 * not read the file again. The hashing runs on its own thread (about a fifth of an upload's CPU,
 * kept off the thread that receives the bytes). States live only in memory: after a restart, a
 * failed write or a lost thread, the part a state lacks is hashed from the file, which is the truth.
 */
export class UploadHashes {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, { worker: Worker; ok(v: unknown): void; fail(e: Error): void }>();
  /**
   * Allocated once, on first use, and reused for every batch: a fresh buffer per ~1 MiB batch was
   * 100 MiB of new external memory per 100 MiB upload, which set off main-thread mark-compacts
   * whenever the heap had grown (docs/uploads.md, "Receiving and hashing").
   */
  private ring: SharedArrayBuffer | null = null;
  private readonly free: Slot[] = [];
  private readonly slotWaiters: Array<(slot: Slot) => void> = [];

  /** A new, empty upload. */
  start(id: string): void {
    void this.call('start', { id }).catch(() => undefined);
  }

  /**
   * Before a write at `offset`: the state is caught up to it (from the file if behind or gone).
   * Not awaited: the thread handles messages in order, so the write's chunks are hashed after it,
   * and the catch-up only reads bytes before `offset`, which the write does not touch.
   */
  begin(id: string, path: string, offset: number): void {
    void this.call('begin', { id, path, offset }).catch(() => undefined);
  }

  /** A free slot, the caller's until it hands it to `update` or gives it back with `release`. */
  async acquire(): Promise<Slot> {
    this.ringBuffer();
    return this.free.pop() ?? new Promise<Slot>((ok) => this.slotWaiters.push(ok));
  }

  release(slot: Slot): void {
    const next = this.slotWaiters.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }

  /**
   * The slot's first `length` bytes, already written at the state's end, in file order. The slot
   * belongs to the hashing thread until it answers (or is gone), then returns to the ring: it is
   * never refilled while the thread may still read it.
   */
  update(id: string, slot: Slot, length: number): void {
    const back = () => this.release(slot);
    this.call('update', { id, slot: slot.index, length }).then(back, back);
  }

  /** After a write: the state is kept only if it covers exactly the `size` bytes the file has. */
  settle(id: string, size: number): void {
    void this.call('settle', { id, size }).catch(() => undefined);
  }

  /** The finished upload's sha256 (hex): from the running state, or from the file where it falls short. */
  async digest(id: string, path: string, size: number): Promise<string> {
    try {
      return (await this.call('digest', { id, path, size })) as string;
    } catch {
      const hash = createHash('sha256');
      await hashRange(hash, path, 0, size);
      return hash.digest('hex');
    }
  }

  /** How many leading bytes of the upload the running hash covers (null: none kept, recomputed when needed). */
  async covered(id: string): Promise<number | null> {
    return (await this.call('covered', { id })) as number | null;
  }

  forget(id: string): void {
    void this.call('forget', { id }).catch(() => undefined);
  }

  /** Ends the hashing thread (states are dropped; a later call starts a new one). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }

  private ringBuffer(): SharedArrayBuffer {
    if (this.ring) return this.ring;
    const ring = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
    for (let index = SLOTS - 1; index >= 0; index--) this.free.push({ index, bytes: Buffer.from(ring, index * SLOT_BYTES, SLOT_BYTES) });
    this.ring = ring;
    return ring;
  }

  private call(op: Op, msg: Record<string, unknown>): Promise<unknown> {
    const seq = ++this.seq;
    return new Promise((ok, fail) => {
      try {
        // Inside the executor: a thread that cannot be started rejects (and frees a slot) too.
        const worker = this.ensureWorker();
        this.waiting.set(seq, { worker, ok, fail });
        worker.postMessage({ ...msg, op, seq });
      } catch (e) {
        this.waiting.delete(seq);
        fail(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(HASH_WORKER_SOURCE, { eval: true, workerData: { ring: this.ringBuffer(), slotBytes: SLOT_BYTES } });
    // Never what keeps the process alive (tests, the CLI, a server shutting down).
    worker.unref();
    worker.on('message', (m: { seq: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      if (m.error !== undefined) w?.fail(new Error(m.error));
      else w?.ok(m.result);
    });
    // A lost thread loses its states; its calls fail and fall back to the file. They fail only on
    // 'exit', once the thread can no longer read a slot, and only that thread's: a replacement
    // may already be hashing slots of its own.
    worker.on('error', () => {
      if (this.worker === worker) this.worker = null;
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      const err = new Error('the hashing thread stopped');
      for (const [seq, w] of this.waiting) {
        if (w.worker !== worker) continue;
        this.waiting.delete(seq);
        w.fail(err);
      }
    });
    this.worker = worker;
    return worker;
  }
}
