import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ratioRow, type BenchRow } from './lib/result';
import { interleaved } from './lib/load';
import type { BenchContext } from './lib/context';
import { sourceClip, type MediaTools } from './media-fixtures';

const run = promisify(execFile);

/** The runner's defaults (server/config.ts: MEDIA_FFMPEG_THREADS, MEDIA_NICE). */
export const RUNNER_THREADS = 2;
export const RUNNER_NICE = 19;

export const PROCESSING_ROW = { name: 'Media: processing speed, full ladder vs one 720p transcode', unit: 'video s / wall s', target: 'report' } as const;

/** The source row 4 and row 5 use: 60 s of 1080p (30 fps, with audio), 15 s in a quick run. */
export const processingSourceSeconds = (ctx: BenchContext) => (ctx.quick ? 15 : 60);

/**
 * The baseline: one plain 720p rendition of the same source, x264 veryfast, AAC, same threads and
 * nice, to a single MP4. What any server would do at the least; the ladder's extra work (four
 * renditions, loudness, fixed GOPs, segments, small.mp4, poster) is the ratio's distance from 1.
 */
async function plainTranscode(tools: MediaTools, source: string, out: string): Promise<void> {
  await run('nice', [
    ...['-n', String(RUNNER_NICE), tools.ffmpeg, '-hide_banner', '-loglevel', 'error', '-y', '-threads', String(RUNNER_THREADS), '-i', source],
    ...['-vf', 'scale=720:-2', '-c:v', 'libx264', '-preset', 'veryfast', '-threads', String(RUNNER_THREADS)],
    ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', out],
  ]);
}

/** Row 4: seconds of video processed per second of wall time, processVideo against one plain transcode. */
export async function processingRows(ctx: BenchContext, tools: MediaTools): Promise<BenchRow[]> {
  const seconds = processingSourceSeconds(ctx);
  const source = await sourceClip(tools.ffmpeg, seconds);
  const work = join(ctx.tmpDir, 'media-processing');
  const binaries = { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, source: 'system' as const };
  let n = 0;
  const timed = (label: string, fn: (dir: string) => Promise<unknown>) => async () => {
    const dir = join(work, `${label}-${n++}`);
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    await fn(dir);
    const wall = (performance.now() - t0) / 1000;
    rmSync(dir, { recursive: true, force: true });
    ctx.log(`media processing ${label}: ${seconds} s of video in ${wall.toFixed(1)} s`);
    return seconds / wall;
  };
  const ladder = timed('ladder', (dir) => tools.processVideo({ binaries, source, outDir: dir, threads: RUNNER_THREADS, nice: RUNNER_NICE, makePoster: true }));
  const plain = timed('720p', (dir) => plainTranscode(tools, source, join(dir, 'out.mp4')));
  // A full run's ladder of 60 s takes minutes on two cores: at most two rounds, and no warm-up.
  const s = await interleaved(Math.min(ctx.rounds, 2), ladder, plain, false);
  return [
    ratioRow(
      {
        name: PROCESSING_ROW.name,
        unit: PROCESSING_ROW.unit,
        direction: 'higher',
        notes: `${seconds} s 1080x1920 30 fps source with audio${ctx.quick ? ' (quick: 15 s, not 60 s)' : ''}; processVideo (4 renditions + the 240p starter + small.mp4 + poster) vs ffmpeg 720p veryfast; both ${RUNNER_THREADS} threads, nice ${RUNNER_NICE}`,
      },
      s.ours,
      s.base,
    ),
  ];
}
