import { createServer } from 'node:http';
import { createNodeListener } from './uploads/mount';
import { startUploadCleanup } from './uploads/tus-server';
import { startUnverifiedSweep } from './auth/unverified-expiry';
import { ConfigError, loadConfig } from './config';
import { createDeps } from './deps';
import { createApp } from './app';

// `npm start`: validate the environment, migrate, and serve the API and the PWA.
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const deps = await createDeps(config);
  const app = createApp(deps);
  // /files (tus) is routed in front of Hono; see server/uploads/mount.ts.
  const server = createServer(createNodeListener(deps, app));
  const stopUploadCleanup = startUploadCleanup(deps);
  const stopUnverifiedSweep = startUnverifiedSweep(deps);
  server.listen(config.port, config.host, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    // Test helpers wait for this exact line to learn the port.
    console.log(`Vidi listening on http://${config.host}:${port}`);
  });
  const shutdown = () => {
    stopUploadCleanup();
    stopUnverifiedSweep();
    server.close(() => void deps.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
