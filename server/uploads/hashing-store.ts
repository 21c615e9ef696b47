import { join } from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { FileStore } from '@tus/file-store';
import type { Upload } from '@tus/server';
import { UploadHashes } from './upload-hashes';

/**
 * @tus/file-store with a sha256 per upload kept up to date as PATCH bodies are written (see
 * UploadHashes), so the finish step needs no second pass over the file.
 */
export class HashingFileStore extends FileStore {
  readonly hashes = new UploadHashes();

  constructor(options: ConstructorParameters<typeof FileStore>[0]) {
    super(options);
  }

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
    const hashing = await this.hashes.begin(id, path, offset);
    // Hashed in stream order just before the file store's own counting and writing.
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hashing.update(chunk);
        done(null, chunk);
      },
    });
    try {
      return await super.write(pipeline(readable, tap, () => undefined), id, offset);
    } finally {
      await this.hashes.settle(id, path, hashing);
    }
  }

  override async remove(id: string): Promise<void> {
    this.hashes.forget(id);
    await super.remove(id);
  }
}
