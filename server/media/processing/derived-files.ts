import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaProcessingError } from './errors';
import type { MediaPlaylist } from './hls-output';
import { joinFragments } from './hls-output';
import { runChild } from './run-child';
import { inputArgs } from './source-input';

export interface DerivedInput {
  ffmpeg: string;
  nice: number;
  threads: number;
  signal?: AbortSignal | undefined;
  /** A rendition folder and its playlist: already upright, SDR and scaled, so cheap to reuse. */
  dir: string;
  playlist: MediaPlaylist;
  scratch: string;
}

/** Below this average luma (16 is black in TV range) a frame counts as black for the poster. */
const NOT_BLACK_YAVG = 32;
/** How far into the video the poster search looks before it settles for the first frame. */
const POSTER_SEARCH_SECONDS = 5;

async function ffmpegRun(o: DerivedInput, args: string[], what: string): Promise<boolean> {
  const res = await runChild({
    command: o.ffmpeg,
    args: ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-threads', String(o.threads), '-filter_threads', String(o.threads), ...args],
    nice: o.nice,
    timeoutMs: 120_000,
    idleMs: 60_000,
    signal: o.signal,
  });
  if (res.code !== 0 && what) throw new MediaProcessingError(`the ${what} could not be written`, false, res.stderr.trim().split('\n').pop());
  return res.code === 0;
}

const written = (file: string) => existsSync(file) && statSync(file).size > 0;

async function joined(o: DerivedInput, name: string): Promise<string> {
  const file = join(o.scratch, name);
  await joinFragments(o.dir, o.playlist, file);
  return file;
}

/** The smallest rendition again as one progressive MP4 (moov first) for plain <video> and sharing. */
export async function writeSmallMp4(o: DerivedInput, target: string): Promise<void> {
  const src = await joined(o, 'small-fragmented.mp4');
  try {
    await ffmpegRun(o, [...inputArgs('mov', src), '-map', '0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', target], 'small MP4');
  } finally {
    await rm(src, { force: true });
  }
}

/**
 * The first frame that is not black (fade-ins and black leaders make bad posters), else the very
 * first frame. Returns whether a poster was written.
 */
export async function writePoster(o: DerivedInput, target: string): Promise<boolean> {
  const src = await joined(o, 'poster-source.mp4');
  const out = ['-frames:v', '1', '-q:v', '3', '-f', 'image2', '-update', '1', target];
  try {
    const select = `signalstats,metadata=select:key=lavfi.signalstats.YAVG:value=${NOT_BLACK_YAVG}:function=greater`;
    await ffmpegRun(o, [...inputArgs('mov', src, { maxSeconds: POSTER_SEARCH_SECONDS }), '-map', '0:v:0', '-vf', select, ...out], '');
    if (!written(target)) await ffmpegRun(o, [...inputArgs('mov', src), '-map', '0:v:0', ...out], '');
    return written(target);
  } finally {
    await rm(src, { force: true });
  }
}
