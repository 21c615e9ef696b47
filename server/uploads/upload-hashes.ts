import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { HASH_WORKER_SOURCE } from './hash-worker-source';

/** Bytes handed to the hashing thread but not hashed yet, per process, before writers wait for it. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

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
  private readonly waiting = new Map<number, { ok(v: unknown): void; fail(e: Error): void }>();
  private pendingBytes = 0;
  private readonly drained: Array<() => void> = [];

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

  /**
   * Bytes written at the state's end, in file order. The buffer is moved to the hashing thread
   * (unusable here afterwards). Waits while too much is queued there, so memory stays bounded.
   */
  async update(id: string, owned: Uint8Array<ArrayBuffer>): Promise<void> {
    const bytes = owned.byteLength;
    this.pendingBytes += bytes;
    const done = () => {
      this.pendingBytes -= bytes;
      if (this.pendingBytes <= MAX_PENDING_BYTES) this.drained.splice(0).forEach((f) => f());
    };
    this.call('update', { id, data: owned.buffer }, [owned.buffer]).then(done, done);
    if (this.pendingBytes > MAX_PENDING_BYTES) await new Promise<void>((ok) => this.drained.push(ok));
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

  private call(op: Op, msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const worker = this.ensureWorker();
    const seq = ++this.seq;
    return new Promise((ok, fail) => {
      this.waiting.set(seq, { ok, fail });
      try {
        worker.postMessage({ ...msg, op, seq }, transfer);
      } catch (e) {
        this.waiting.delete(seq);
        fail(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(HASH_WORKER_SOURCE, { eval: true });
    // Never what keeps the process alive (tests, the CLI, a server shutting down).
    worker.unref();
    worker.on('message', (m: { seq: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      if (m.error !== undefined) w?.fail(new Error(m.error));
      else w?.ok(m.result);
    });
    // A lost thread loses its states; everything still waiting fails and falls back to the file.
    const lost = (e: unknown) => {
      if (this.worker === worker) this.worker = null;
      const err = e instanceof Error ? e : new Error('the hashing thread stopped');
      for (const w of this.waiting.values()) w.fail(err);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.worker = worker;
    return worker;
  }
}
