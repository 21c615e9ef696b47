import { PassThrough, type Readable } from 'node:stream';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import type { KvStore } from '@tus/server';
import { s3ClientConfig, type S3Storage } from '../storage/s3-client';

/** A 5 MiB part per PATCH of the app (it sends 5 MiB chunks), S3's smallest part but the last. */
const PART_BYTES = 5 * 1024 * 1024;
const CACHED_UPLOADS = 1000;

/**
 * The store's cache of each upload's .info (its size, metadata and multipart upload id). Those never
 * change once created (no creation-defer-length), so a copy is right on every instance. Bounded: the
 * store drops an entry only when the upload finishes or is removed here, and an upload whose last
 * PATCH went to another instance or that expired would otherwise stay for the life of the process.
 */
class BoundedKvStore implements KvStore<MetadataValue> {
  private readonly data = new Map<string, MetadataValue>();

  async get(key: string): Promise<MetadataValue | undefined> {
    return this.data.get(key);
  }

  async set(key: string, value: MetadataValue): Promise<void> {
    this.data.delete(key);
    this.data.set(key, value);
    if (this.data.size > CACHED_UPLOADS) this.data.delete(this.data.keys().next().value as string);
  }

  async delete(key: string): Promise<void> {
    this.data.delete(key);
  }
}

class VidiS3Store extends S3Store {
  /**
   * A body that fails midway (the client went away) ends the store's input instead, so what did
   * arrive is stored and the write returns its offset, as the file store does. Handed the failing
   * stream itself, the store's write never settled when it was resuming a tail part (its
   * concatenation of the part and the body does not pass the error on): the tail part was already
   * deleted, the upload's lock never came free (settling-locker.ts waits for the write), and a temp
   * file stayed behind.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const body = new PassThrough();
    const end = () => {
      if (!body.writableEnded) body.end();
    };
    readable.on('error', end);
    readable.on('close', end);
    readable.pipe(body);
    return super.write(body, id, offset);
  }

  /** The store's termination leaves the short tail part (`{id}.part`) behind; it goes with the rest here. */
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } finally {
      await this.deleteIncompletePart(id);
    }
  }
}

/** @tus/s3-store on the media bucket: tus objects at its root ({id}, {id}.info, {id}.part). */
export function createS3UploadStore(storage: S3Storage, expirationPeriodInMilliseconds: number): S3Store {
  return new VidiS3Store({
    partSize: PART_BYTES,
    expirationPeriodInMilliseconds,
    cache: new BoundedKvStore(),
    s3ClientConfig: { ...s3ClientConfig(storage), bucket: storage.bucket },
  });
}
