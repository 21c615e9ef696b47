import type { TestProject } from 'vitest/node';
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY, startS3Gateway, type S3Env, type S3Gateway } from '../support/s3-gateway';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/setup/s3.ts in the S3 projects: the run's gateway; tests/helpers/test-storage.ts makes a bucket on it per server. */
    s3Env: S3Env;
  }
}

let gateway: S3Gateway | undefined;

/**
 * The S3 half of the suite: one throwaway Ceph RADOS Gateway for the run (tests/support/s3-gateway.sh,
 * about 5 s), each test making buckets of its own on it. VIDI_TEST_S3_ENDPOINT=http://127.0.0.1:PORT
 * uses a gateway already running instead (one `tests/support/s3-gateway.sh start DIR` made, with the
 * default keys), so a developer need not wait for one on every run.
 */
export async function setup(project: TestProject): Promise<void> {
  const endpoint = process.env.VIDI_TEST_S3_ENDPOINT;
  if (endpoint) {
    project.provide('s3Env', {
      S3_ENDPOINT: endpoint.replace(/\/$/, ''),
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: DEFAULT_S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: DEFAULT_S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    });
    return;
  }
  gateway = await startS3Gateway();
  project.provide('s3Env', gateway.env);
}

export async function teardown(): Promise<void> {
  await gateway?.stop();
  gateway = undefined;
}
