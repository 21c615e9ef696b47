import { execFileSync } from 'node:child_process';
import { PROJECT_ROOT } from '../helpers/server-process';

/**
 * Browser tests run against the production build, exactly what `npm start` serves: build it once per
 * run. The e2e and cluster projects both name this setup; global setups run in vitest's own process, so
 * the variable set after the first build spares the second project a build of the same tree.
 */
export default function setup(): void {
  if (process.env.VIDI_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    // vitest sets NODE_ENV=test, which vite would keep: React's development build instead of `npm start`'s.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  process.env.VIDI_SKIP_BUILD = '1';
}
