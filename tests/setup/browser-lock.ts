import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/setup/browser-lock.ts in the e2e project: the folder of the run's one-browser lock. */
    browserLockDir: string;
  }
}

let dir: string | undefined;

/**
 * The e2e files run beside the other projects' files (three at a time, vitest.config.ts) yet one
 * browser at a time: each takes this run's lock first (tests/setup/one-browser-at-a-time.ts).
 */
export function setup(project: TestProject): void {
  dir = mkdtempSync(join(tmpdir(), 'vidi-browser-lock-'));
  project.provide('browserLockDir', dir);
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
