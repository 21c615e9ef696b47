import { mkdirSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, type Upload } from '@tus/server';
import { SLOT_BYTES, UploadHashes } from './upload-hashes';

/**
 * @tus/file-store with its PATCH write replaced: the body is written in 1 MiB batches with one
 * positional write each (the next batch gathered while the last is written), and each written
 * batch is handed to the upload's running sha256 (UploadHashes, on its own thread), so the finish
 * step needs no second pass over the file. A batch is copied into a slot of a fixed ring shared
 * with the hashing thread, so nothing is allocated per batch. The store's own write runs two more
 * stream stages per 64 KiB chunk; measurements in docs/uploads.md.
 */
export class HashingFileStore extends FileStore {
  readonly hashes = new UploadHashes();

  /** Upload ids are ours (32 hex digits), checked before tus sees a request, so this join is safe. */
  filePath(id: string): string {
    return join(this.directory, id);
  }

  override async create(file: Upload): Promise<Upload> {
    const created = await super.create(file);
    this.hashes.start(file.id);
    return created;
  }

  override async write(readable: IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    const path = this.filePath(id);
    this.hashes.begin(id, path, offset);
    const fh = await open(path, 'r+');
    let position = offset;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let writing: Promise<unknown> = Promise.resolve();
    let failed = false;
    const flush = async () => {
      await writing;
      if (!batchBytes) return;
      // Taken only once the batch is complete, and never while another is held: a slow client
      // holds no slot while its socket is idle, and writers cannot wait on each other's slots.
      const slot = await this.hashes.acquire();
      let filled = 0;
      for (const c of batch) {
        slot.bytes.set(c, filled);
        filled += c.length;
      }
      const at = position;
      position += filled;
      batch = [];
      batchBytes = 0;
      // Hashed once on disk, in file order (one write at a time), so the state matches the file.
      writing = fh.write(slot.bytes, 0, filled, at).then(
        () => this.hashes.update(id, slot, filled),
        (e: unknown) => {
          this.hashes.release(slot);
          throw e;
        },
      );
    };
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        let rest = chunk;
        // A batch is exactly one slot: the part of a chunk that does not fit starts the next one.
        while (batchBytes + rest.length >= SLOT_BYTES) {
          const room = SLOT_BYTES - batchBytes;
          batch.push(rest.subarray(0, room));
          batchBytes += room;
          rest = rest.subarray(room);
          await flush();
        }
        if (rest.length) {
          batch.push(rest);
          batchBytes += rest.length;
        }
      }
    } catch {
      // The body ended early (the client went away) or a write failed. What did arrive is still
      // written below and kept, as the file store does, so a resume re-sends less.
      failed = true;
    }
    try {
      await flush();
      await writing;
    } catch {
      // A failed disk write: the file is short of what was counted; settle drops the state.
      failed = true;
    } finally {
      await fh.close();
      const size = await stat(path).then(
        (st) => st.size,
        () => -1,
      );
      this.hashes.settle(id, size);
    }
    if (failed) throw ERRORS.FILE_WRITE_ERROR;
    return position;
  }

  override async remove(id: string): Promise<void> {
    this.hashes.forget(id);
    await super.remove(id);
  }
}

// @tus/file-store's constructor starts an fs.mkdir that nobody can await and that throws from its
// callback when the folder vanished meanwhile (a test removing DATA_DIR right after the app closes).
// The folder is made synchronously instead, so it exists once the constructor returns. The method
// is private in the library's types, hence the prototype assignment rather than an override; 0700 like
// the rest of DATA_DIR (docs/decisions/0004-secrets-at-rest-and-server-hardening.md).
Object.defineProperty(HashingFileStore.prototype, 'checkOrCreateDirectory', {
  value(this: HashingFileStore) {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
  },
});
