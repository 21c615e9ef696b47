import { failStartup as fail, readConfigOrExit as readConfig } from './startup';
import { createDeps } from './deps';
import { findCheckedFfmpeg, createConfiguredRunner } from './media/jobs/start';

// `npm run worker`: a process that only processes media jobs, for deployments that run the web
// server with MEDIA_WORKER=off. Any number may run against one database (on any machine when media
// are on S3; sharing DATA_DIR on disk): jobs are claimed with an expiring lease, so a dead worker's
// job is taken over (docs/reliability.md, "The media job runner").
async function main(): Promise<void> {
  const config = readConfig();
  let binaries;
  try {
    binaries = await findCheckedFfmpeg(config);
  } catch (e) {
    fail(`Cannot process videos: ${(e as Error).message}`);
  }
  // Migrates like main.ts, so a worker started first (or alone) finds the tables it needs.
  // Sends pokes (progress, ready) but serves no event streams, so it listens for none.
  const deps = await createDeps(config, { servesStreams: false });
  const runner = createConfiguredRunner(deps, binaries);
  // Handlers first: whoever started the worker may stop it the moment it says it runs.
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    // Stops ffmpeg and gives the job back (queued again at once), then closes the database.
    void runner
      .stop()
      .then(() => deps.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error('media worker did not stop cleanly', err);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await runner.start();
  console.log(
    `Vidi media worker running (media on ${deps.media.kind}, concurrency ${config.media.concurrency}, ${config.media.ffmpegThreads} ffmpeg threads, nice ${config.media.nice})`,
  );
}

void main();
