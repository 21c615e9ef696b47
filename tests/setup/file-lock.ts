import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/setup/file-lock.ts in the e2e and cluster projects: the folder of the project's lock. */
    fileLockDir: string;
  }
}

/**
 * The e2e and cluster files run beside the other projects' files (three at a time, vitest.config.ts)
 * yet one of each project at a time: each file takes its project's lock first
 * (tests/setup/one-file-at-a-time.ts). vitest runs a global setup once per project that names it.
 */
export function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), `vidi-${project.name}-lock-`));
  project.provide('fileLockDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
