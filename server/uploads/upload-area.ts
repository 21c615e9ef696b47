import type { ByteSource } from './container/byte-source';

/**
 * Where tus keeps uploads until they finish: DATA_DIR/uploads (disk-upload-area.ts) or the root of
 * the bucket (s3-upload-area.ts). finishUpload goes through this, so the check, the hash, the move
 * under media/ and the removal of a refused file read the same on both.
 */
export interface UploadArea {
  /** A fully received upload, to check and then keep or discard. */
  open(uploadId: string): Promise<FinishedUpload>;
  /** Removes everything tus keeps of an upload (its bytes and its info); a missing one is fine. */
  remove(uploadId: string): Promise<void>;
}

export interface FinishedUpload {
  /** The bytes, for the content check; release it with `close` whatever became of the check. */
  readonly source: ByteSource;
  close(): Promise<void>;
  /**
   * Makes the bytes the media original under `key` and returns their sha256 (hex); the original is
   * durable and the upload's own objects are gone when it resolves.
   */
  keep(key: string, mimeType: string): Promise<string>;
  /** Drops a refused upload's bytes and info. */
  discard(): Promise<void>;
}
