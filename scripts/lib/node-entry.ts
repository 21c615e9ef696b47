import { join } from 'node:path';
import { SERVER_ENTRIES } from '../build/server-bundle';

export type ServerEntry = keyof typeof SERVER_ENTRIES;

/**
 * The node arguments that run one of the server's entry points: its bundle when VIDI_SERVER_BUNDLE
 * names a built one (the test runs build it once, `tests/setup/build-server.ts`, as `npm start` does),
 * else the TypeScript under tsx, as the npm scripts other than `start` run it.
 */
export function nodeEntryArgs(entry: ServerEntry, bundleDir = process.env.VIDI_SERVER_BUNDLE): string[] {
  return bundleDir ? ['--enable-source-maps', join(bundleDir, `${entry}.mjs`)] : ['--import', 'tsx', SERVER_ENTRIES[entry]];
}
