import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BATCH_BYTES, hashedBatches } from './hashed-batches';
import { S3RunningHashes } from './s3-running-hashes';

/** The body of a PATCH as a socket hands it over: pieces of 64 KiB, then a short one. */
function socketPieces(data: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.length; at += 64 * 1024) pieces.push(data.subarray(at, at + 64 * 1024));
  return Readable.from(pieces);
}

async function collect(body: Readable): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of body) out.push(chunk as Buffer);
  return out;
}

describe('hashedBatches: a PATCH body on its way into the S3 store', () => {
  it('passes the bytes on unchanged in batches of BATCH_BYTES (the rest last) and hashes every byte', async () => {
    const data = randomBytes(3 * BATCH_BYTES + 12_345);
    const hashes = new S3RunningHashes();
    const hashed = hashes.begin('u1', 0);
    const out = await collect(socketPieces(data).pipe(hashedBatches(hashed)));
    expect(out.map((c) => c.length)).toEqual([BATCH_BYTES, BATCH_BYTES, BATCH_BYTES, 12_345]);
    expect(Buffer.concat(out).equals(data)).toBe(true);
    hashed!.settle(data.length);
    expect(hashes.digest('u1', data.length)).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('hands on what it holds when the body ends early (a cut PATCH keeps what arrived)', async () => {
    const data = randomBytes(BATCH_BYTES / 2);
    const batches = hashedBatches(null);
    const out = collect(batches);
    batches.write(data.subarray(0, 1000));
    batches.write(data.subarray(1000));
    batches.end();
    expect(Buffer.concat(await out).equals(data)).toBe(true);
  });
});
