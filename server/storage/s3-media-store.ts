import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type ListObjectsV2CommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { contentTypeOf } from './content-type';
import { filesUnder, forEachLimited } from './local-files';
import { MEDIA_CACHE_CONTROL, MediaNotFound, type MediaStore } from './media-store';
import { createS3Client, MEDIA_PREFIX, type S3Storage } from './s3-client';
import { SizeCache } from './size-cache';

/** The bucket's media live under this prefix; the tus store keeps its objects at the bucket root. */
/** Uploads at once when publishing a job's outputs (a ladder is ~100 small segments). */
const PUBLISH_CONCURRENCY = 4;
/** withLocalFile's folder among the scratch folders (refused as a scratch key). */
const DOWNLOADS = 'downloads';
/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export interface S3MediaStoreOptions {
  storage: S3Storage;
  /** Local room for job outputs and downloads (DATA_DIR/scratch). */
  scratchDir: string;
  /** Sizes remembered to save a HEAD per ranged GET (sizes of media keys never change). */
  sizeCacheEntries?: number;
}

/** Media as objects `media/{key}` in an S3 bucket (docs/decisions/0018-several-instances.md). */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly scratchDir: string;
  private readonly sizes: SizeCache;

  constructor(options: S3MediaStoreOptions) {
    this.client = createS3Client(options.storage);
    this.bucket = options.storage.bucket;
    this.scratchDir = options.scratchDir;
    this.sizes = new SizeCache(options.sizeCacheEntries ?? 10_000);
  }

  /** The object key of a media key. */
  objectKey(key: string): string {
    return MEDIA_PREFIX + key;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const known = this.sizes.get(key);
    if (known !== undefined) return { size: known };
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const size = head.ContentLength ?? 0;
      this.sizes.set(key, size);
      return { size };
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array>> {
    return (await this.get(key, range)).transformToWebStream();
  }

  private async get(key: string, range?: { start: number; end: number }) {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!out.Body) throw new Error(`S3 answered GET ${key} without a body`);
      return out.Body;
    } catch (e) {
      // A size cached here may outlive an object another instance deleted: the GET is what tells.
      if (statusOf(e) === 404) {
        this.sizes.drop(key);
        throw new MediaNotFound(key);
      }
      throw e;
    }
  }

  /**
   * One conditional PUT (If-None-Match: *): an object already there answers 412 and stays as it
   * was, so two instances writing the same content-addressed key never both report a creation.
   */
  async putOnce(key: string, bytes: Uint8Array, contentType: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Body: bytes,
          ContentType: contentType,
          CacheControl: MEDIA_CACHE_CONTROL,
          IfNoneMatch: '*',
        }),
      );
    } catch (e) {
      const status = statusOf(e);
      // 409: another conditional PUT of the key is in flight (AWS); same bytes, so it is there or soon will be.
      if (status === 412 || (status === 409 && (await this.stat(key)))) return false;
      throw e;
    }
    this.sizes.set(key, bytes.length);
    return true;
  }

  async moveFileIn(localPath: string, key: string, contentType: string): Promise<void> {
    await this.upload(localPath, key, contentType);
    await rm(localPath, { force: true });
  }

  private async upload(localPath: string, key: string, contentType: string): Promise<void> {
    const { size } = await stat(localPath);
    // A single PUT of a stream with its length: originals are at most 120 MiB, far under its 5 GiB.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: contentType,
        CacheControl: MEDIA_CACHE_CONTROL,
      }),
    );
    this.sizes.set(key, size);
  }

  /**
   * The scratch keys with a folder on this machine (a crashed try leaves one; the media runner's
   * start-up sweep decides which are dead: server/media/jobs/sweep.ts). Keys never hold a '+'.
   */
  async listScratch(): Promise<string[]> {
    await this.removeDeadDownloads();
    const entries = await readdir(this.scratchDir, { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory() && e.name !== DOWNLOADS).map((e) => e.name.replaceAll('+', '/'));
  }

  /**
   * Source copies of processes that are gone (killed in the middle of a job): a download is named
   * after its process id, and one whose process no longer runs is nobody's.
   */
  private async removeDeadDownloads(): Promise<void> {
    const dir = join(this.scratchDir, DOWNLOADS);
    const names = await readdir(dir).catch(() => [] as string[]);
    const dead = names.filter((n) => !processRuns(Number(/^(\d+)-/.exec(n)?.[1])));
    await Promise.all(dead.map((n) => rm(join(dir, n), { force: true })));
  }

  private scratchPath(scratchKey: string): string {
    const name = scratchKey.replaceAll('/', '+');
    if (name === '' || name === '.' || name === '..' || name === DOWNLOADS) throw new Error(`not a scratch key: ${scratchKey}`);
    return join(this.scratchDir, name);
  }

  async scratchFolder(scratchKey: string): Promise<string> {
    const dir = this.scratchPath(scratchKey);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async discardScratch(scratchKey: string): Promise<void> {
    await rm(this.scratchPath(scratchKey), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }

  async publishScratch(scratchKey: string, key: string): Promise<void> {
    const dir = this.scratchPath(scratchKey);
    const files = await filesUnder(dir);
    // Whatever is under the key is an earlier try's that never got referenced (as on disk).
    await this.deleteFolder(key);
    await forEachLimited(files, PUBLISH_CONCURRENCY, (rel) => this.upload(join(dir, rel), `${key}/${rel}`, contentTypeOf(rel)));
    await rm(dir, { recursive: true, force: true });
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const downloads = join(this.scratchDir, DOWNLOADS);
    await mkdir(downloads, { recursive: true });
    const file = join(downloads, `${process.pid}-${randomBytes(8).toString('hex')}-${basename(key)}`);
    try {
      // In Node the SDK's body is the HTTP response itself.
      await pipeline((await this.get(key)) as Readable, createWriteStream(file));
      return await use(file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Every page of a listing (ListObjectsV2 gives at most 1000 entries a page). */
  private async *pages(prefix: string, delimiter?: string): AsyncGenerator<ListObjectsV2CommandOutput> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }));
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async listFiles(folder: string, namePrefix = ''): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of this.pages(`${this.objectKey(folder)}/${namePrefix}`, '/')) {
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(MEDIA_PREFIX.length));
    }
    return keys;
  }

  async listFolders(folder: string): Promise<string[]> {
    const prefix = folder === '' ? MEDIA_PREFIX : `${this.objectKey(folder)}/`;
    const names: string[] = [];
    for await (const page of this.pages(prefix, '/')) {
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) names.push(p.Prefix.slice(prefix.length, -1));
    }
    return names;
  }

  async delete(keys: string[]): Promise<void> {
    for (const k of keys) this.sizes.drop(k);
    await this.deleteObjects(keys.map((k) => this.objectKey(k)));
  }

  async deleteFolder(folder: string): Promise<void> {
    const prefix = `${this.objectKey(folder)}/`;
    this.sizes.dropUnder(`${folder}/`);
    // A page is at most 1000 keys, one DeleteObjects; the continuation token is a position, so
    // deleting what was listed does not skip anything.
    for await (const page of this.pages(prefix)) {
      await this.deleteObjects((page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
    }
  }

  private async deleteObjects(objectKeys: string[]): Promise<void> {
    for (let i = 0; i < objectKeys.length; i += DELETE_BATCH) {
      const batch = objectKeys.slice(i, i + DELETE_BATCH);
      const out = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      const failed = out.Errors?.[0];
      if (failed) throw new Error(`S3 could not delete ${out.Errors?.length} object(s), first ${failed.Key}: ${failed.Code} ${failed.Message}`);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** Whether a process of this id runs on this machine (signal 0 checks without sending anything). */
function processRuns(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
