import { Transform } from 'node:stream';
import type { HashedWrite } from './s3-running-hashes';

/**
 * How much of a PATCH's body goes into its part's temporary file per write, and is read back per
 * read for its UploadPart: the socket hands the body over in pieces of up to 64 KiB, and
 * @tus/s3-store wrote each with its own appendFile and read the part back in 64 KiB pieces, each
 * sent to the gateway with its own socket write, about 5,200 system calls per 48 MiB against
 * 1,430 now (docs/uploads.md, "Storage layout").
 */
export const BATCH_BYTES = 1024 * 1024;

/**
 * The body on its way to the store: each piece hashed as it comes (s3-running-hashes.ts) and passed
 * on in batches of BATCH_BYTES (the rest when the body ends), so the store's temporary file takes
 * a few large writes instead of one per socket read.
 */
export function hashedBatches(hashed: HashedWrite | null): Transform {
  let batch: Buffer[] = [];
  let batched = 0;
  const take = () => {
    const out = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched);
    batch = [];
    batched = 0;
    return out;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hashed?.update(chunk);
      batch.push(chunk);
      batched += chunk.length;
      done(null, batched >= BATCH_BYTES ? take() : undefined);
    },
    flush(done) {
      done(null, batched ? take() : undefined);
    },
  });
}
