import { randomBytes } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createBucket, deleteBucket, s3ClientFor } from '../support/s3-gateway';

/**
 * The gateway the S3 project runs on (tests/setup/s3.ts) does what the media store and tus uploads
 * need from S3, with the client settings of tests/support/s3-gateway.ts.
 */
const env = inject('s3Env');
const bucket = `t-${randomBytes(6).toString('hex')}`;
const BODY = 'abcdefghijklmnopqrstuvwxyz';
let s3: S3Client;

beforeAll(async () => {
  s3 = s3ClientFor(env);
  await createBucket(env, bucket);
});

afterAll(async () => {
  await deleteBucket(env, bucket);
  s3.destroy();
});

async function getRange(key: string, range: string) {
  const r = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }));
  return { status: r.$metadata.httpStatusCode, contentRange: r.ContentRange, body: await r.Body!.transformToString() };
}

async function rejection(promise: Promise<unknown>): Promise<{ name: string; status: number | undefined }> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the request to fail');
}

describe('the S3 gateway', () => {
  it('creates a bucket, idempotently', async () => {
    await createBucket(env, bucket);
    const head = await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    expect(head.$metadata.httpStatusCode).toBe(200);
  });

  it('stores an object and serves it whole, by range, and its size by HEAD', async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'a/b.txt', Body: BODY, ContentType: 'text/plain' }));
    const whole = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'a/b.txt' }));
    expect(await whole.Body!.transformToString()).toBe(BODY);
    expect(whole.ContentType).toBe('text/plain');

    expect(await getRange('a/b.txt', 'bytes=0-9')).toEqual({ status: 206, contentRange: 'bytes 0-9/26', body: 'abcdefghij' });
    expect(await getRange('a/b.txt', 'bytes=-5')).toEqual({ status: 206, contentRange: 'bytes 21-25/26', body: 'vwxyz' });
    expect(await rejection(getRange('a/b.txt', 'bytes=100-200'))).toEqual({ name: 'InvalidRange', status: 416 });

    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'a/b.txt' }));
    expect(head.ContentLength).toBe(26);
  });

  it('deletes several objects in one request', async () => {
    const keys = ['d/1', 'd/2', 'd/3'];
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Key }));
    const result = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
    expect(result.Errors ?? []).toEqual([]);
    expect(result.Deleted?.map((d) => d.Key).sort()).toEqual(keys);
    const left = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'd/' }));
    expect(left.KeyCount).toBe(0);
  });

  it('uploads in parts, lists the parts, and assembles them', async () => {
    const part1 = randomBytes(5 * 1024 * 1024);
    const part2 = randomBytes(1234);
    const key = 'multi.bin';
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const etags: string[] = [];
    for (const [i, Body] of [part1, part2].entries()) {
      const r = await s3.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1, Body }));
      etags.push(r.ETag!);
    }
    const parts = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
      [1, part1.length, etags[0]],
      [2, part2.length, etags[1]],
    ]);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentLength).toBe(part1.length + part2.length);
    expect(head.ETag).toMatch(/-2"$/);
    // A range across the seam of the two parts.
    const seam = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${part1.length - 2}-${part1.length + 1}` }));
    expect(Buffer.from(await seam.Body!.transformToByteArray())).toEqual(Buffer.concat([part1.subarray(-2), part2.subarray(0, 2)]));
  });

  it('serves a presigned GET to a plain fetch', async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'signed.txt', Body: BODY }));
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'signed.txt' }), { expiresIn: 60 });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(BODY);
    const ranged = await fetch(url, { headers: { Range: 'bytes=3-5' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('def');
    expect((await fetch(url.replace(/X-Amz-Signature=[0-9a-f]+/, 'X-Amz-Signature=' + '0'.repeat(64)))).status).toBe(403);
  });

  it('deletes a bucket with objects and an unfinished multipart upload, and a missing one quietly', async () => {
    const other = `t-${randomBytes(6).toString('hex')}`;
    await createBucket(env, other);
    await s3.send(new PutObjectCommand({ Bucket: other, Key: 'x', Body: 'x' }));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: other, Key: 'y' }));
    await s3.send(new UploadPartCommand({ Bucket: other, Key: 'y', UploadId, PartNumber: 1, Body: 'y' }));
    await deleteBucket(env, other);
    expect(await rejection(s3.send(new HeadBucketCommand({ Bucket: other })))).toMatchObject({ status: 404 });
    await deleteBucket(env, other);
  });
});
