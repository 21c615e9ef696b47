import { buildServerBundle, SERVER_BUNDLE_DIR } from '../../scripts/build/server-bundle';

/**
 * Every spawned server, worker and CLI of the run starts from the bundle `npm start` runs, built once
 * here: under tsx each start compiled the server's modules again, about 2 s of CPU a process
 * (docs/decisions/0031-server-bundle.md). Global setups run in vitest's own process before the
 * workers start, and the workers inherit the variable.
 */
export default async function setup(): Promise<void> {
  if (process.env.VIDI_SERVER_BUNDLE) return;
  await buildServerBundle();
  process.env.VIDI_SERVER_BUNDLE = SERVER_BUNDLE_DIR;
}
