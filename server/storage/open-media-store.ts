import { join } from 'node:path';
import type { Config } from '../config';
import { DiskMediaStore } from './disk-media-store';
import type { MediaStore } from './media-store';
import { S3MediaStore } from './s3-media-store';

/** The configured store: S3 when S3_BUCKET is set, else DATA_DIR/media. */
export function openMediaStore(config: Config): MediaStore {
  if (config.storage.kind === 'disk') return new DiskMediaStore(config.mediaDir);
  return new S3MediaStore({ storage: config.storage, scratchDir: join(config.dataDir, 'scratch') });
}
