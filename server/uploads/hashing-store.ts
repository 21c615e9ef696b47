import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, type Upload } from '@tus/server';
import { UploadHashes } from './upload-hashes';

/** Bytes gathered before one positional writev: few syscalls, and little held in memory. */
const BATCH_BYTES = 1 << 20;

/**
 * @tus/file-store with its PATCH write replaced: each chunk is hashed as it arrives (UploadHashes,
 * so the finish step needs no second pass over the file) and written in ~1 MiB batches with one
 * positional writev each, the next batch gathered while the last is written. The store's own
 * write runs two more stream stages per 64 KiB chunk; this path measured about a fifth less CPU
 * per upload (docs/uploads.md).
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
    const state = await this.hashes.begin(id, path, offset);
    const fh = await open(path, 'r+');
    let position = offset;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      await writing;
      if (!batchBytes) return;
      writing = fh.writev(batch, position);
      position += batchBytes;
      batch = [];
      batchBytes = 0;
    };
    let failed = false;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        state.hash.update(chunk);
        state.offset += chunk.length;
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= BATCH_BYTES) await flush();
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
      failed = true;
      // A failed disk write leaves the file short of the hashed bytes: settle drops the state.
    } finally {
      await fh.close();
      await this.hashes.settle(id, path, state);
    }
    if (failed) throw ERRORS.FILE_WRITE_ERROR;
    return position;
  }

  override async remove(id: string): Promise<void> {
    this.hashes.forget(id);
    await super.remove(id);
  }
}
