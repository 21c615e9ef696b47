import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config';

export type S3Storage = Extract<StorageConfig, { kind: 's3' }>;

/**
 * Media live under this prefix of the bucket (s3-media-store.ts); tus keeps its objects ({id},
 * {id}.info, {id}.part) at the root, outside it (server/uploads/s3-upload-store.ts).
 */
export const MEDIA_PREFIX = 'media/';

/**
 * The client settings for the configured bucket: for our own clients and for @tus/s3-store, which
 * builds its own from them. Checksums only when an operation requires them: by default the SDK
 * sends stream bodies as aws-chunked with a trailing checksum, which Ceph RGW and other
 * S3-compatible servers refuse (411 MissingContentLength), failing every tus PATCH.
 */
export function s3ClientConfig(storage: S3Storage): S3ClientConfig {
  return {
    region: storage.region,
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    ...(storage.credentials ? { credentials: storage.credentials } : {}),
    forcePathStyle: storage.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

export function createS3Client(storage: S3Storage): S3Client {
  return new S3Client(s3ClientConfig(storage));
}
