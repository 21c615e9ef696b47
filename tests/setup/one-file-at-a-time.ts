import { afterAll, inject } from 'vitest';
import { acquireFileLock } from '../helpers/file-lock';

// Each e2e (or cluster) file holds its project's lock (tests/setup/file-lock.ts) from before its
// first hook to after its last: Chromium, or a whole deployment, is heavy for two cores, so two
// files of the project never overlap, while the API, integration and unit files keep the other
// workers busy.
const release = await acquireFileLock(inject('fileLockDir'));
// A file that fails before its hooks run still lets go when its worker ends.
process.once('exit', release);
afterAll(() => {
  process.off('exit', release);
  release();
});
