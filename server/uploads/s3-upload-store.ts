import { createReadStream, ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Part } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, TUS_RESUMABLE, Upload, type KvStore } from '@tus/server';
import { s3ClientConfig, type S3Storage } from '../storage/s3-client';
import { BATCH_BYTES, hashedBatches } from './hashed-batches';
import { S3RunningHashes } from './s3-running-hashes';

/**
 * S3's smallest part but the last: a 5 MiB PATCH (the app's chunk on most links) is one part, and a
 * larger one (its chunk on a fast, unmetered link) goes up as several at once while it arrives.
 */
const PART_BYTES = 5 * 1024 * 1024;
const CACHED_UPLOADS = 1000;

/**
 * A map of at most CACHED_UPLOADS uploads, the oldest dropped first. It holds the store's cache of
 * each upload's .info (its size, metadata and multipart upload id), which never changes once created
 * (no creation-defer-length), so a copy is right on every instance, and each upload's last listing.
 * Bounded: the store drops an entry only when the upload finishes or is removed here, and an upload
 * whose last PATCH went to another instance or that expired would otherwise stay for the life of the
 * process.
 */
class BoundedMap<V> {
  private readonly data = new Map<string, V>();

  async get(key: string): Promise<V | undefined> {
    return this.data.get(key);
  }

  /** Read and removed at once. */
  take(key: string): V | undefined {
    const value = this.data.get(key);
    this.data.delete(key);
    return value;
  }

  async set(key: string, value: V): Promise<void> {
    this.data.delete(key);
    this.data.set(key, value);
    if (this.data.size > CACHED_UPLOADS) this.data.delete(this.data.keys().next().value as string);
  }

  async delete(key: string): Promise<void> {
    this.data.delete(key);
  }
}

/** What a PATCH's getUpload found under the upload's lock: its parts, the tail part's size (if any) and so the offset. */
interface Listing {
  offset: number;
  parts: Part[];
  tail: number | undefined;
  /** Made at the creation, before the creation's answer names the upload to anyone. */
  fresh?: boolean;
}

/** The multipart upload is gone (completed or aborted); as @tus/s3-store, not a bare 404. */
function missingUpload(e: unknown): boolean {
  const err = e as { name?: unknown; Code?: unknown } | null;
  return ['NoSuchKey', 'NoSuchUpload'].some((code) => err?.name === code || err?.Code === code);
}

/** A copy of the cached upload at `offset` (the cache's own object stays as it was). */
function atOffset(file: Upload, offset: number): Upload {
  const copy = new Upload({ id: file.id, offset });
  Object.assign(copy, file, { offset });
  return copy;
}

const sum = (parts: Part[]) => parts.reduce((n, p) => n + (p.Size ?? 0), 0);

/** The parts from the first on, up to the first number missing (the listing is sorted). */
function leadingRun(parts: Part[]): Part[] {
  const run: Part[] = [];
  for (const part of parts) {
    if (part.PartNumber !== run.length + 1) break;
    run.push(part);
  }
  return run;
}

class VidiS3Store extends S3Store {
  readonly hashes = new S3RunningHashes();
  /** Each upload's last getUpload listing, taken by the write of the same PATCH. */
  private readonly listings = new BoundedMap<Listing>();
  /** The parts known during a write: the listing's and those this write sent. */
  private readonly writing = new Map<string, { parts: Part[]; tail: number | undefined }>();

  /**
   * The new upload's info goes into the cache as it is written, so its first PATCH here does not
   * GET it back (the store fills its cache only from a GET).
   */
  protected override async saveMetadata(upload: Upload, uploadId: string): Promise<void> {
    await super.saveMetadata(upload, uploadId);
    await this.cache.set(upload.id, { file: atOffset(upload, upload.offset), 'upload-id': uploadId, 'tus-version': TUS_RESUMABLE });
    // Taken by the POST's own look at the offset, which it makes only with an expiry (ours is 24 h).
    if (this.getExpiration() > 0) await this.listings.set(upload.id, { offset: 0, parts: [], tail: undefined, fresh: true });
  }

  /**
   * As the store's, with its two reads (ListParts and the tail part's HEAD) at once rather than one
   * after the other, and what they found kept for the write that follows in the same PATCH.
   */
  override async getUpload(id: string): Promise<Upload> {
    let metadata: MetadataValue;
    try {
      metadata = await this.getMetadata(id);
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    const { file } = metadata;
    // @tus/server's POST asks for the offset of the upload it has just created (for Upload-Expires),
    // before anyone else knows its URL: nothing can have been written yet but by this process.
    const created = this.listings.take(id);
    if (created?.fresh) return atOffset(file, 0);
    const [parts, tail] = await Promise.all([
      this.retrieveParts(id).catch((e: unknown) => {
        if (missingUpload(e)) return null;
        throw e;
      }),
      this.getIncompletePartSize(id),
    ]);
    // The multipart upload is complete: the info object says how big it became.
    if (!parts) return atOffset(file, file.size ?? 0);
    const run = leadingRun(parts);
    let kept = tail;
    if (run.length < parts.length && tail !== undefined) {
      // A PATCH's parts go up at once: one that failed (or died with its instance) while a later
      // one landed leaves a gap. Only the parts before it count, so the resume sends the rest again
      // under the same part numbers; the tail part followed the later parts and goes.
      await this.deleteIncompletePart(id);
      kept = undefined;
    }
    const offset = sum(run) + (kept ?? 0);
    await this.listings.set(id, { offset, parts: run, tail: kept });
    return atOffset(file, offset);
  }

  /**
   * A body that fails midway (the client went away) ends the store's input instead, so what did
   * arrive is stored and the write returns its offset, as the file store does. Handed the failing
   * stream itself, the store's write never settled when it was resuming a tail part (its
   * concatenation of the part and the body does not pass the error on): the tail part was already
   * deleted, the upload's lock never came free (settling-locker.ts waits for the write), and a temp
   * file stayed behind. The bytes are hashed on their way (s3-running-hashes.ts).
   *
   * Under the upload's lock nobody else changes its parts, so the listing the PATCH's getUpload
   * just made stands in for the store's own ListParts before and after the write and for its GET of
   * a tail part that is not there: two round trips fewer per PATCH, and a third at the last one.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const listing = this.listings.take(id);
    if (listing?.offset === offset && !listing.fresh) this.writing.set(id, { parts: [...listing.parts], tail: listing.tail });
    const hashed = this.hashes.begin(id, offset);
    const body = hashedBatches(hashed);
    const end = () => {
      if (!body.writableEnded) body.end();
    };
    readable.on('error', end);
    readable.on('close', end);
    readable.pipe(body);
    try {
      const reached = await super.write(body, id, offset);
      hashed?.settle(reached);
      return reached;
    } catch (e) {
      hashed?.fail();
      throw e;
    } finally {
      this.writing.delete(id);
    }
  }

  protected override async retrieveParts(id: string, partNumberMarker?: string): Promise<Part[]> {
    const known = this.writing.get(id);
    if (known && !partNumberMarker) return [...known.parts].sort((a, b) => a.PartNumber! - b.PartNumber!);
    return super.retrieveParts(id, partNumberMarker);
  }

  /**
   * The store hands over its part's temporary file as a read stream of 64 KiB pieces; the same
   * file is read in BATCH_BYTES pieces instead. Still a file stream, so the SDK takes its length
   * from the file and signs it as UNSIGNED-PAYLOAD rather than hashing a buffer it was given.
   */
  protected override async uploadPart(metadata: MetadataValue, readStream: Parameters<S3Store['uploadPart']>[1], partNumber: number): Promise<string> {
    if (!(readStream instanceof ReadStream)) return this.sendPart(metadata, readStream, partNumber);
    readStream.destroy();
    const file = createReadStream(readStream.path, { highWaterMark: BATCH_BYTES });
    // As the store did for its own stream: a failed read fails the part instead of the process.
    const unread = new Promise<never>((_, reject) => file.once('error', reject));
    unread.catch(() => undefined);
    const sent = this.sendPart(metadata, file, partNumber);
    sent.catch(() => undefined); // a request left behind by a failed read settles later
    try {
      return await Promise.race([sent, unread]);
    } finally {
      // The request pipes the file in, and a pipe does not close its source when the request fails.
      file.destroy();
    }
  }

  /** The part's UploadPart, its ETag kept among the parts known to the write in progress. */
  private async sendPart(metadata: MetadataValue, body: Parameters<S3Store['uploadPart']>[1], partNumber: number): Promise<string> {
    const etag = await super.uploadPart(metadata, body, partNumber);
    this.writing.get(metadata.file.id)?.parts.push({ PartNumber: partNumber, ETag: etag });
    return etag;
  }

  protected override async downloadIncompletePart(id: string): ReturnType<S3Store['downloadIncompletePart']> {
    const known = this.writing.get(id);
    if (known && known.tail === undefined) return undefined;
    return super.downloadIncompletePart(id);
  }

  /** The store's termination leaves the short tail part (`{id}.part`) behind; it goes with the rest here. */
  override async remove(id: string): Promise<void> {
    this.hashes.forget(id);
    await this.listings.delete(id);
    try {
      await super.remove(id);
    } finally {
      await this.deleteIncompletePart(id);
    }
  }
}

export type VidiS3UploadStore = VidiS3Store;

/** @tus/s3-store on the media bucket: tus objects at its root ({id}, {id}.info, {id}.part). */
export function createS3UploadStore(storage: S3Storage, expirationPeriodInMilliseconds: number): VidiS3UploadStore {
  return new VidiS3Store({
    partSize: PART_BYTES,
    expirationPeriodInMilliseconds,
    // Tags only serve a bucket lifecycle rule keyed on Tus-Completed; our expiry lists the multipart
    // uploads instead (tus-server.ts), and without tags the last PATCH skips a second PUT of the .info.
    useTags: false,
    cache: new BoundedMap<MetadataValue>() satisfies KvStore<MetadataValue>,
    s3ClientConfig: { ...s3ClientConfig(storage), bucket: storage.bucket },
  });
}
