import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { processVideo as ProcessVideo } from '#server/media/processing/process-video';
import { PROJECT_ROOT } from '#tests/helpers/server-process';

const run = promisify(execFile);

/**
 * Sources and ladders for the media benchmarks. Made once and kept in a cache outside the run's
 * temp folder (encoding 1080p takes minutes on two cores): a source is keyed by its ffmpeg
 * arguments, a ladder by its source and the text of server/media/processing, so a change to the
 * pipeline makes a new one with the real processVideo.
 */
export const CACHE_DIR = join(tmpdir(), 'vidi-bench-media-cache');

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  processVideo: typeof ProcessVideo;
}

/** The processing library and ffmpeg, or why the benchmark cannot run. */
export async function mediaTools(): Promise<MediaTools | string> {
  const dir = join(PROJECT_ROOT, 'server/media/processing');
  if (!existsSync(join(dir, 'process-video.ts'))) return 'server/media/processing/process-video.ts is not in the tree';
  try {
    const { findFfmpeg } = await import('#server/media/processing/ffmpeg-binaries');
    const { processVideo } = await import('#server/media/processing/process-video');
    const b = findFfmpeg();
    return { ffmpeg: b.ffmpeg, ffprobe: b.ffprobe, processVideo };
  } catch (e) {
    return `ffmpeg or the processing library is missing: ${(e as Error).message.split('\n')[0]}`;
  }
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * A 1080x1920 (portrait, "1080p") H.264 + AAC clip at ~12 Mbit/s, the way a phone uploads it:
 * testsrc2 with temporal noise so x264 cannot make it small, moov first (+faststart), which is the
 * original's best case for progressive playback.
 */
export async function sourceClip(ffmpeg: string, seconds: number): Promise<string> {
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1080x1920:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', String(seconds), '-vf', 'noise=alls=10:allf=t'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '12M', '-maxrate', '12M', '-bufsize', '12M', '-g', '60', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart'],
  ];
  const file = join(CACHE_DIR, `source-${seconds}s-${hash(args.join(' '))}.mp4`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.partial.mp4`;
  await run(ffmpeg, [...args, partial], { maxBuffer: 1 << 24 });
  renameSync(partial, file);
  return file;
}

/** Hash of the processing library's source: a new pipeline gets a new cached ladder. */
function pipelineVersion(): string {
  const dir = join(PROJECT_ROOT, 'server/media/processing');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  return hash(files.map((f) => f + readFileSync(join(dir, f), 'utf8')).join('\n'));
}

/** The HLS ladder of `source` made by the real processVideo (2 threads, like the runner), cached. */
export async function ladderOf(tools: MediaTools, source: string, log: (m: string) => void): Promise<string> {
  const dir = join(CACHE_DIR, `ladder-${hash(source + pipelineVersion())}`);
  if (existsSync(join(dir, 'master.m3u8'))) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const t0 = performance.now();
  const binaries = { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, source: 'system' as const };
  const r = await tools.processVideo({ binaries, source, outDir: partial, threads: 2, nice: 0, makePoster: true });
  log(
    `ladder made by processVideo in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${r.renditions.map((x) => `${x.name} ${Math.round(x.bandwidth / 1000)} kbit/s`).join(', ')}`,
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}

/** Copies a cached file or folder under DATA_DIR/media/{key} and returns the key. */
export function installMedia(dataDir: string, from: string, key: string): string {
  const to = join(dataDir, 'media', key);
  cpSync(from, to, { recursive: true });
  return key;
}
