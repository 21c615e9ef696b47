import { randomBytes } from 'node:crypto';

/** Where this run of the suite keeps media: the `s3` project sets VIDI_TEST_STORAGE=s3 (a Ceph RADOS Gateway, tests/setup/s3.ts). */
export const testStorage: 'disk' | 's3' = process.env.VIDI_TEST_STORAGE === 's3' ? 's3' : 'disk';

/**
 * The S3_* variables for a server under test: on S3 the run's gateway and a new empty bucket of its
 * own (`t-<hex>`); on disk nothing (media in DATA_DIR).
 */
export async function testStorageEnv(): Promise<Record<string, string>> {
  if (testStorage === 'disk') return {};
  // Imported here: this helper also serves runs without a gateway (and the benchmarks, outside vitest).
  const [{ inject }, { createBucket }] = await Promise.all([import('vitest'), import('../support/s3-gateway')]);
  const env = inject('s3Env');
  const name = `t-${randomBytes(6).toString('hex')}`;
  await createBucket(env, name);
  return { ...env, S3_BUCKET: name };
}
