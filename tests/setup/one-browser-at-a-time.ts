import { afterAll, inject } from 'vitest';
import { acquireFileLock } from '../helpers/file-lock';

// Each e2e file holds the run's browser lock (tests/setup/browser-lock.ts) from before its first
// hook to after its last: Chromium is heavy for two cores, so e2e files never overlap one another,
// while the API, integration and unit files keep the other workers busy.
const release = await acquireFileLock(inject('browserLockDir'));
afterAll(release);
// A file that fails before its hooks run still lets go when its worker ends.
process.once('exit', release);
