import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Storage } from '../storage/s3-client';

export type { S3Storage };

/**
 * Media live under this prefix of the bucket (as server/storage/s3-media-store.ts keeps them); tus
 * keeps its objects ({id}, {id}.info, {id}.part) at the root, outside it.
 */
export const MEDIA_PREFIX = 'media/';

/**
 * The client settings for the bucket, as @tus/s3-store takes them (it builds its own client;
 * server/storage/s3-client.ts builds the others with the same settings). Checksums only where an
 * operation requires one: gateways such as Ceph RGW refuse the SDK's default `aws-chunked` bodies
 * with a trailing checksum (411), which would fail every tus PATCH.
 */
export function s3ClientConfig(storage: S3Storage): S3ClientConfig {
  return {
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    ...(storage.credentials ? { credentials: storage.credentials } : {}),
  };
}
