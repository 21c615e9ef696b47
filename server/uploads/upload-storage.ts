import { MemoryLocker, type DataStore } from '@tus/server';
import type { AppDeps } from '../context';
import { DiskUploadArea } from './disk-upload-area';
import { HashingFileStore } from './hashing-store';
import { createS3Client } from '../storage/s3-client';
import { S3UploadArea } from './s3-upload-area';
import { createS3UploadStore } from './s3-upload-store';
import type { UploadArea } from './upload-area';
import { UploadHashes } from './upload-hashes';
import { SettlingLocker } from './settling-locker';
import { PgUploadLocker } from './upload-locker';

export interface UploadStorage {
  datastore: DataStore;
  area: UploadArea;
  /** The running sha256 of each upload on disk (on S3 the store keeps its own, s3-running-hashes.ts; this stays empty). */
  hashes: UploadHashes;
  /** The lock tus takes per request: PostgreSQL's across instances, else in this process; an unlock waits for the store's write. */
  locker: SettlingLocker;
  /** The cross-instance locks on PostgreSQL; undefined on SQLite (one process, @tus/server's MemoryLocker). */
  pgLocker: PgUploadLocker | undefined;
  close(): Promise<void>;
}

/**
 * The tus datastore for the configured storage (DATA_DIR/uploads or the S3 bucket's root) and the
 * locker for the database: on PostgreSQL several instances may serve one upload, so its lock lives
 * there (upload-locker.ts); SQLite means one process.
 */
export function openUploadStorage(deps: AppDeps, expirationPeriodInMilliseconds: number): UploadStorage {
  const { config } = deps;
  const pgLocker = deps.engine.dialect === 'postgres' ? new PgUploadLocker(config.databaseUrl, deps.log) : undefined;
  const locker = new SettlingLocker(pgLocker ?? new MemoryLocker());
  const storage = config.storage;
  let datastore: DataStore;
  let area: UploadArea;
  let hashes: UploadHashes;
  let closeStore = async (): Promise<void> => undefined;
  if (storage.kind === 's3') {
    const store = createS3UploadStore(storage, expirationPeriodInMilliseconds);
    const client = createS3Client(storage);
    datastore = store;
    area = new S3UploadArea(client, storage.bucket, store);
    hashes = new UploadHashes();
    closeStore = async () => client.destroy();
  } else {
    const store = new HashingFileStore({ directory: config.uploadsDir, expirationPeriodInMilliseconds });
    datastore = store;
    hashes = store.hashes;
    area = new DiskUploadArea(config.uploadsDir, config.mediaDir, hashes);
  }
  // The length must be known up front: 120 MiB is checked at creation, before any byte.
  datastore.extensions = datastore.extensions.filter((e) => e !== 'creation-defer-length');
  locker.track(datastore);
  return {
    datastore,
    area,
    hashes,
    locker,
    pgLocker,
    close: async () => {
      await Promise.all([pgLocker?.close(), hashes.close(), closeStore()]);
    },
  };
}
