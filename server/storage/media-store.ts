/**
 * Where media live: originals, posters, captions and each processing job's outputs, under the keys
 * of server/media/urls.ts ({userId}/{name}, {userId}/{videoId}/{jobId}/…). Two implementations: the
 * disk under DATA_DIR/media (one machine; disk-media-store.ts) and an S3 bucket (any number of
 * instances and workers; s3-media-store.ts). Everything that touches media bytes goes through this,
 * so the two behave the same for callers and tests (docs/decisions/0018-several-instances.md).
 *
 * Keys are trusted here: callers build them from ids and checked names, and the media route checks a
 * requested key against MEDIA_KEY_RE first. The disk store still refuses a key that would leave its
 * folder.
 */
export interface MediaStore {
  readonly kind: 'disk' | 's3';

  /** The object's size, or null when there is no object under the key. */
  stat(key: string): Promise<{ size: number } | null>;

  /** The bytes of [start, end] (inclusive), or all of them; throws MediaNotFound when the key is missing. */
  read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array>>;

  /**
   * Stores bytes under a content-addressed key unless an object is already there (same key, same
   * bytes): returns whether this call created it. A reader never sees half an object.
   */
  putOnce(key: string, bytes: Uint8Array, contentType: string): Promise<boolean>;

  /**
   * Stores the local file under the key and takes the file: on disk it is renamed into place, on S3
   * it is uploaded and the local file removed. Durable when it resolves.
   */
  moveFileIn(localPath: string, key: string, contentType: string): Promise<void>;

  /**
   * A local folder to write a job's outputs into, for the key `scratchKey` (a hidden name in the
   * video's folder). On disk it is that folder under the media folder, so publishing is one rename;
   * on S3 it is a folder under DATA_DIR. Created empty.
   */
  scratchFolder(scratchKey: string): Promise<string>;

  /** Removes a scratch folder made by scratchFolder; a missing one is fine. */
  discardScratch(scratchKey: string): Promise<void>;

  /**
   * Publishes a finished scratch folder as the folder `key` (replacing whatever was under it) and
   * removes the scratch. Every object is in place when it resolves.
   */
  publishScratch(scratchKey: string, key: string): Promise<void>;

  /**
   * Runs `use` with a local file holding the object's bytes (ffmpeg's input): on disk the file
   * itself, on S3 a temporary download removed afterwards.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;

  /** Keys of the objects directly in `folder` whose name starts with `namePrefix` (not deeper). */
  listFiles(folder: string, namePrefix?: string): Promise<string[]>;

  /** Names of the folders directly in `folder` (on S3, the common prefixes). */
  listFolders(folder: string): Promise<string[]>;

  /** Removes exactly these objects; missing ones are fine. */
  delete(keys: string[]): Promise<void>;

  /** Removes the folder and everything under it; a missing one is fine. */
  deleteFolder(folder: string): Promise<void>;

  /** Releases clients and sockets (tests, shutdown). */
  close(): Promise<void>;
}

/**
 * Every media key names bytes that never change ({timestamp}-… originals, a job's own folder,
 * content-addressed posters and captions): a year, for the app's /media answers and for the objects
 * a bucket or CDN serves itself (MEDIA_PUBLIC_BASE_URL, docs/deploy.md).
 */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** read() of a key that has no object. */
export class MediaNotFound extends Error {
  override name = 'MediaNotFound';
  constructor(readonly key: string) {
    super(`no media object under ${key}`);
  }
}
