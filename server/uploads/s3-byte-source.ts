import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ByteSource } from './container/byte-source';

/**
 * Each GET fetches at least this much from the asked offset: the container parsers read a box or
 * element header (8-16 bytes) and then its neighbours, so one window serves a run of them.
 */
const READ_AHEAD = 256 * 1024;
/** Windows kept: the parse jumps between the file's head and its tail (an MP4's moov at the end). */
const WINDOWS = 4;

export interface S3ByteSource extends ByteSource {
  /** Ranged GETs sent so far (the read-ahead's effect, measured by the tests). */
  readonly requests: number;
}

/**
 * A ByteSource over one object by ranged GETs, the S3 twin of file-source.ts. `size` comes from the
 * caller (a HEAD it already made), so opening sends nothing.
 */
export function s3ByteSource(client: S3Client, bucket: string, key: string, size: number): S3ByteSource {
  const windows: Array<{ start: number; bytes: Uint8Array }> = [];
  let requests = 0;
  return {
    size,
    get requests() {
      return requests;
    },
    async read(offset, length) {
      const end = Math.min(size, offset + Math.max(0, length));
      if (end <= offset) return new Uint8Array(0);
      const hit = windows.find((w) => w.start <= offset && w.start + w.bytes.length >= end);
      if (hit) return hit.bytes.subarray(offset - hit.start, end - hit.start);
      const fetchEnd = Math.min(size, Math.max(end, offset + READ_AHEAD));
      requests++;
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${offset}-${fetchEnd - 1}` }));
      const bytes = (await res.Body?.transformToByteArray()) ?? new Uint8Array(0);
      windows.push({ start: offset, bytes });
      if (windows.length > WINDOWS) windows.shift();
      return bytes.subarray(0, end - offset);
    },
  };
}
