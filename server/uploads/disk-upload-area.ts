import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncPath, mediaPath } from '../storage/disk-media-store';
import { openFileSource } from './file-source';
import type { FinishedUpload, UploadArea } from './upload-area';
import type { UploadHashes } from './upload-hashes';

/** The tus file store keeps `{id}` (the bytes) and `{id}.json` (its offset and metadata). */
export async function removeUploadFiles(uploadsDir: string, id: string): Promise<void> {
  await Promise.all([rm(join(uploadsDir, id), { force: true }), rm(join(uploadsDir, `${id}.json`), { force: true })]);
}

/**
 * Uploads as files under DATA_DIR/uploads, kept as media by a rename into DATA_DIR/media (the same
 * file system). The sha256 comes from the running hash kept while the bytes arrived (UploadHashes).
 */
export class DiskUploadArea implements UploadArea {
  constructor(
    readonly uploadsDir: string,
    readonly mediaDir: string,
    readonly hashes: UploadHashes,
  ) {}

  async open(uploadId: string): Promise<FinishedUpload> {
    const file = join(this.uploadsDir, uploadId);
    // The longest wait (the disk) starts first and overlaps the content check, the move and the
    // hash; all of it ends before `keep` resolves. Opened before the move (the sync follows the
    // inode, not the name).
    const handle = await open(file, 'r');
    const fileSynced = handle.sync().finally(() => handle.close());
    fileSynced.catch(() => undefined); // awaited in keep; a refused file is removed without waiting
    const src = await openFileSource(file);
    return {
      source: src,
      close: () => src.close(),
      keep: async (key) => {
        const target = mediaPath(this.mediaDir, key);
        await mkdir(dirname(target), { recursive: true });
        await rename(file, target);
        // The hash was kept up to date while the bytes arrived; only a part it missed (a restart, a
        // failed write) is read again, from the new name. The folder's fsync makes that name durable.
        const [sha256] = await Promise.all([this.hashes.digest(uploadId, target, src.size), fileSynced, fsyncPath(dirname(target))]);
        await rm(join(this.uploadsDir, `${uploadId}.json`), { force: true });
        return sha256;
      },
      discard: () => this.remove(uploadId),
    };
  }

  async remove(uploadId: string): Promise<void> {
    this.hashes.forget(uploadId);
    await removeUploadFiles(this.uploadsDir, uploadId);
  }
}
