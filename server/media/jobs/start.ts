import type { Config } from '../../config';
import type { WriteDeps } from '../../changes/write-tx';
import type { MediaStore } from '../../storage/media-store';
import { describeFfmpeg, findFfmpeg, type FfmpegBinaries } from '../processing/ffmpeg-binaries';
import { checkFfmpegOnce } from '../processing/ffmpeg-check-cache';
import { processVideo } from '../processing/process-video';
import { DEFAULT_RETRY } from './queue';
import { createMediaRunner, newWorkerId, type MediaRunner } from './runner';

/** Between looks for due jobs when nothing woke the runner (another process's enqueue, a backoff's end). */
const POLL_MS = 2000;

/**
 * Finds ffmpeg and ffprobe (FFMPEG_PATH / FFPROBE_PATH, PATH, the npm packages) and checks they can
 * do the whole pipeline (once per build: `checkFfmpegOnce`). Throws FfmpegMissingError with a
 * message that says how to fix it. Says once which builds it will use, and warns when one is older
 * than FFmpeg 5.1 (docs/decisions/0015-ffmpeg-binaries.md).
 */
export async function findCheckedFfmpeg(config: Config, say: Pick<Console, 'log' | 'warn'> = console): Promise<FfmpegBinaries> {
  const binaries = findFfmpeg({ PATH: process.env.PATH, FFMPEG_PATH: config.media.ffmpegPath, FFPROBE_PATH: config.media.ffprobePath });
  const { line, warning } = describeFfmpeg(binaries, await checkFfmpegOnce(binaries));
  say.log(line);
  if (warning) say.warn(warning);
  return binaries;
}

/** The runner of a process (`npm start` with MEDIA_WORKER=on, or `npm run worker`), configured from the environment. */
export function createConfiguredRunner(deps: WriteDeps & { config: Config; media: MediaStore }, binaries: FfmpegBinaries): MediaRunner {
  const m = deps.config.media;
  return createMediaRunner(
    { db: deps.db, pokes: deps.pokes, log: deps.log, now: deps.now, media: deps.media },
    {
      binaries,
      processVideo,
      concurrency: m.concurrency,
      threads: m.ffmpegThreads,
      preset: m.x264Preset,
      nice: m.nice,
      leaseMs: m.leaseMs,
      pollMs: POLL_MS,
      retry: DEFAULT_RETRY,
      workerId: newWorkerId(),
    },
  );
}
