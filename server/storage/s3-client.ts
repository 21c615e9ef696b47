import { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config';

export type S3Storage = Extract<StorageConfig, { kind: 's3' }>;

/**
 * An S3 client for the configured bucket. Checksums only when an operation requires them: by default
 * the SDK sends stream bodies as aws-chunked with a trailing checksum, which Ceph RGW and other
 * S3-compatible servers refuse (411 MissingContentLength).
 */
export function createS3Client(storage: S3Storage): S3Client {
  return new S3Client({
    region: storage.region,
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    ...(storage.credentials ? { credentials: storage.credentials } : {}),
    forcePathStyle: storage.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
