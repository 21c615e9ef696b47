import { createServer } from 'node:http';
import { createNodeListener } from './uploads/mount';
import { closeTusEndpoint, startUploadCleanup } from './uploads/tus-server';
import { startUnverifiedSweep } from './auth/unverified-expiry';
import type { Config } from './config';
import { failStartup as fail, readConfigOrExit as readConfig } from './startup';
import { createDeps } from './deps';
import { createApp } from './app';
import { startLeaderTimers } from './cluster/leader-timers';
import { startLimitSweep } from './security/shared-limits';
import { findCheckedFfmpeg, createConfiguredRunner } from './media/jobs/start';
import { registerMediaHost } from './media/jobs/registry';
import type { FfmpegBinaries } from './media/processing/ffmpeg-binaries';
import { startPushSender } from './notifications/sender';
import { vapidKeysOf } from './notifications/vapid-keys';

/**
 * With a runner in this process, ffmpeg must work before anyone can upload: a member would
 * otherwise upload into a pipeline that can never finish. With MEDIA_WORKER=off the separate
 * workers check it themselves.
 */
async function ffmpegIfNeeded(config: Config): Promise<FfmpegBinaries | undefined> {
  if (!config.media.worker) return undefined;
  try {
    return await findCheckedFfmpeg(config);
  } catch (e) {
    fail(
      `Cannot process videos: ${(e as Error).message}\n(Set MEDIA_WORKER=off to run the web server without a media worker, and run \`npm run worker\` elsewhere.)`,
    );
  }
}

// `npm start`: validate the environment, migrate, and serve the API and the PWA.
async function main(): Promise<void> {
  const config = readConfig();
  const binaries = await ffmpegIfNeeded(config);
  const deps = await createDeps(config);
  const app = createApp(deps);
  // /files (tus) is routed in front of Hono; see server/uploads/mount.ts.
  const server = createServer(createNodeListener(deps, app));
  // Periodic jobs run on one instance of the database (the advisory-lock leader on PostgreSQL).
  const timers = startLeaderTimers(deps, [() => startUploadCleanup(deps), () => startUnverifiedSweep(deps), () => startLimitSweep(deps)]);
  // Every instance sends the pushes that are due: each row is claimed once (notifications/sender.ts).
  const pushSender = startPushSender(deps);
  // The VAPID pair is made on first start (not at the first subscriber), and a pair this
  // SECRETS_KEY cannot open is reported now rather than at the first push.
  void vapidKeysOf(deps.db, deps.secrets, deps.now).catch((err: unknown) => deps.log.error(`push: ${err instanceof Error ? err.message : String(err)}`));
  const runner = binaries ? createConfiguredRunner(deps, binaries) : undefined;
  // Without a runner, a deletion here still removes the video's media folder (the worker's outputs).
  const unregisterMedia = runner ? () => {} : registerMediaHost({ media: deps.media, abortVideo: async () => {}, wake: () => {} });
  server.listen(config.port, config.host, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    // Test helpers wait for this exact line to learn the port.
    console.log(`Vidi listening on http://${config.host}:${port}`);
    runner?.start().catch((err: unknown) => deps.log.error('media runner failed to start', err));
  });
  const shutdown = () => {
    void timers.stop();
    void pushSender.stop();
    unregisterMedia();
    setTimeout(() => process.exit(0), 3000).unref();
    // The runner first: it stops ffmpeg and gives its job back while the database is still open.
    void (runner?.stop() ?? Promise.resolve())
      .catch((err: unknown) => deps.log.error('media runner did not stop cleanly', err))
      // Then the upload locks' connections and the tus store's clients, then the database.
      .finally(() =>
        server.close(
          () =>
            void closeTusEndpoint(deps)
              .then(() => deps.close())
              .then(() => process.exit(0)),
        ),
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
