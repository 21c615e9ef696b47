import type { Readable } from 'node:stream';
import type { DataStore, Lock, Locker, RequestRelease } from '@tus/server';

/**
 * When a client goes away in the middle of a PATCH body, @tus/server's write pipeline rejects at
 * once and the handler unlocks the upload, while the store's write is still storing what did arrive
 * (the file store its last batch; the S3 store the short tail part, one more PUT). A HEAD or PATCH
 * let in then reads an offset that is about to move and answers a resume with 409, or two writes of
 * the tail part overlap. Here the store's writes are tracked per upload, and an unlock waits for the
 * upload's write to settle before it lets the next request in.
 */
export class SettlingLocker implements Locker {
  private readonly writes = new Map<string, Promise<unknown>>();

  constructor(private readonly inner: Locker) {}

  /** Makes the store's writes known to this locker. */
  track(store: DataStore): void {
    const write = store.write.bind(store);
    store.write = (readable: Readable, id: string, offset: number) => {
      const running = write(readable, id, offset);
      const settled = running.catch(() => undefined);
      this.writes.set(id, settled);
      void settled.then(() => {
        if (this.writes.get(id) === settled) this.writes.delete(id);
      });
      return running;
    };
  }

  newLock(id: string): Lock {
    const lock = this.inner.newLock(id);
    return {
      lock: (signal: AbortSignal, requestRelease: RequestRelease) => lock.lock(signal, requestRelease),
      unlock: async () => {
        await this.writes.get(id);
        await lock.unlock();
      },
    };
  }
}
