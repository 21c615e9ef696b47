import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { MediaNotFound, type MediaStore } from './media-store';

/**
 * A key's file under the media folder. The one place that turns a key into a path, and it refuses
 * any key that would escape the folder.
 */
export function mediaPath(mediaDir: string, key: string): string {
  const full = normalize(join(mediaDir, key));
  if (!full.startsWith(normalize(mediaDir) + sep)) throw new Error(`media key escapes the media folder: ${key}`);
  return full;
}

/** Forces a file's (or a folder's) data to disk. */
export async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Media as files under DATA_DIR/media/{key} (docs/uploads.md, "Storage layout"). */
export class DiskMediaStore implements MediaStore {
  readonly kind = 'disk' as const;

  constructor(readonly mediaDir: string) {}

  path(key: string): string {
    return mediaPath(this.mediaDir, key);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const st = await stat(this.path(key)).catch(() => null);
    return st?.isFile() ? { size: st.size } : null;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array>> {
    const file = this.path(key);
    // Opened before streaming, so a missing file is an error here rather than in the middle of a response.
    const fh = await open(file, 'r').catch(() => {
      throw new MediaNotFound(key);
    });
    const stream = fh.createReadStream({ start: range?.start, end: range?.end, highWaterMark: 256 * 1024 });
    return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  }

  /**
   * Written to a hidden temp name, fsynced, then linked to its name, so a reader never sees half a
   * file and a row never points at bytes a crash could lose. A leading dot never matches the served
   * key shape.
   */
  async putOnce(key: string, bytes: Uint8Array): Promise<boolean> {
    const file = this.path(key);
    if (await this.stat(key)) return false;
    await mkdir(dirname(file), { recursive: true });
    const tmp = join(dirname(file), `.tmp-${randomBytes(8).toString('hex')}-${basename(file)}`);
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    // link() fails when the name exists, so of racing writers of one key exactly one creates it.
    try {
      await link(tmp, file);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** The caller's file must be on the same file system (DATA_DIR/uploads is): one rename, then the folder's fsync. */
  async moveFileIn(localPath: string, key: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await fsyncPath(localPath);
    await rename(localPath, target);
    await fsyncPath(dirname(target));
  }

  async scratchFolder(scratchKey: string): Promise<string> {
    await this.discardScratch(scratchKey);
    const dir = this.path(scratchKey);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  discardScratch(scratchKey: string): Promise<void> {
    return this.deleteFolder(scratchKey);
  }

  async publishScratch(scratchKey: string, key: string): Promise<void> {
    // A folder already there is an earlier try's, renamed just before a crash: never referenced.
    await this.deleteFolder(key);
    await rename(this.path(scratchKey), this.path(key));
  }

  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.path(key));
  }

  async listFiles(folder: string, namePrefix = ''): Promise<string[]> {
    const entries = await readdir(this.path(folder), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile() && e.name.startsWith(namePrefix)).map((e) => `${folder}/${e.name}`);
  }

  async listFolders(folder: string): Promise<string[]> {
    const dir = folder === '' ? this.mediaDir : this.path(folder);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((k) => rm(this.path(k), { force: true })));
  }

  async deleteFolder(folder: string): Promise<void> {
    // maxRetries: an ffmpeg that is just being stopped may still add a file while the tree goes (ENOTEMPTY).
    await rm(this.path(folder), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }

  async close(): Promise<void> {}
}
