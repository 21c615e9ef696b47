import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePoster, writeSmallMp4 } from './derived-files';
import { encodeArgs, STARTER_WORK_FOLDER } from './encode-args';
import { MediaProcessingError } from './errors';
import type { FfmpegBinaries } from './ffmpeg-binaries';
import type { MediaPlaylist, Variant } from './hls-output';
import { masterPlaylist, measureBandwidth, settleVariant, videoCodecFromInit } from './hls-output';
import type { LadderPlan, PlannedRendition } from './ladder';
import { planLadder } from './ladder';
import { MAX_DURATION_MS } from '#sync/protocol/limits';
import { measureStreams } from './measure-streams';
import type { ProbeResult } from './probe';
import { probe } from './probe';
import { runChild } from './run-child';
import { sniffContainer } from './source-input';

export { MediaProcessingError } from './errors';

export interface ProcessOptions {
  binaries: FfmpegBinaries;
  source: string;
  /** Exists and is empty; emptied again when processing fails. */
  outDir: string;
  threads: number;
  nice: number;
  makePoster: boolean;
  /** Aborting kills ffmpeg and rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
  onProgress?(percent: number): void;
  preset?: string;
}

export interface Rendition {
  name: string;
  width: number;
  height: number;
  /** Peak bit/s of the written segments, as in the master playlist. */
  bandwidth: number;
  codecs: string;
}

export interface ProcessResult {
  renditions: Rendition[];
  /** Measured from the packets' timestamps (never the header's claim), at most MAX_DURATION_MS. */
  durationMs: number;
  hasAudio: boolean;
  poster: boolean;
  /** The starter rung (docs/decisions/0027-cold-start.md), in the master playlist but not one of `renditions`. */
  starter?: Rendition;
}

/** The share of the progress bar the encode takes; remux and poster are quick and fill the rest. */
const ENCODE_SHARE = 90;
/** A run that ends before this share of the probed duration was decoded is a damaged file. */
const MIN_DECODED_SHARE = 0.8;
/**
 * The encode's deadline grows with the measured duration, which the caps bound (2 minutes, 4K,
 * 120 fps): 60 s plus 15 s a second of video, 31 minutes for the longest, against ~1x real time
 * for 1080p on two threads (docs/benchmarks.md). A timeout is retried: load can cause it.
 */
export const encodeTimeoutMs = (durationMs: number) => 60_000 + 15 * Math.min(durationMs, MAX_DURATION_MS);

function progressReporter(onProgress: ProcessOptions['onProgress']): (percent: number) => void {
  let last = -1;
  return (percent) => {
    const p = Math.max(0, Math.min(100, Math.floor(percent)));
    if (p > last && onProgress) onProgress((last = p));
  };
}

interface EncodeOutcome {
  frames: number;
  decodedMs: number;
  code: number | null;
  stderr: string;
}

async function encode(o: ProcessOptions, p: ProbeResult, plan: LadderPlan, workDir: string, report: (n: number) => void): Promise<EncodeOutcome> {
  const folders = [...plan.renditions.map((_, i) => `v${i}`), ...(plan.starter ? [STARTER_WORK_FOLDER] : [])];
  await Promise.all(folders.map((f) => mkdir(join(workDir, f), { recursive: true })));
  let frames = 0;
  let decodedMs = 0;
  const res = await runChild({
    command: o.binaries.ffmpeg,
    args: encodeArgs({ probe: p, plan, source: o.source, workDir, threads: o.threads, preset: o.preset ?? 'veryfast' }),
    nice: o.nice,
    timeoutMs: encodeTimeoutMs(p.durationMs),
    idleMs: 120_000,
    signal: o.signal,
    onStdoutLine: (line) => {
      const [key, value] = line.split('=');
      // out_time_ms is in microseconds too (an old ffmpeg naming bug); older builds print only it.
      if ((key === 'out_time_us' || key === 'out_time_ms') && Number(value) > 0) {
        decodedMs = Math.max(decodedMs, Number(value) / 1000);
        report((decodedMs / p.durationMs) * ENCODE_SHARE);
      } else if (key === 'frame') frames = Number(value) || frames;
    },
  });
  return { frames, decodedMs, code: res.code, stderr: res.stderr };
}

function checkEncode(e: EncodeOutcome, p: ProbeResult): void {
  const lastError = e.stderr.trim().split('\n').pop();
  // Killed from outside (the out-of-memory killer, an operator): nothing says the file is at fault.
  if (e.code === null) throw new MediaProcessingError('processing was interrupted', false, lastError);
  if (e.frames === 0) throw new MediaProcessingError('the video could not be decoded', true, lastError);
  if (e.code !== 0) {
    const diskFull = /No space left on device/i.test(e.stderr);
    throw new MediaProcessingError(diskFull ? 'the server ran out of disk space' : 'the video could not be converted', !diskFull, lastError);
  }
  checkComplete(e.decodedMs, p.durationMs, lastError);
}

/** Refuses a source of which less than MIN_DECODED_SHARE of `wantMs` is there to decode. */
function checkComplete(gotMs: number, wantMs: number, detail?: string): void {
  if (gotMs >= wantMs * MIN_DECODED_SHARE) return;
  const [got, want] = [gotMs, wantMs].map((ms) => (ms / 1000).toFixed(1));
  throw new MediaProcessingError(`the video is truncated or damaged: only ${got} of ${want} seconds could be decoded`, true, detail);
}

type SettledVariant = Variant & { playlist: MediaPlaylist };

async function settleOne(o: ProcessOptions, r: PlannedRendition, from: string): Promise<SettledVariant> {
  const dir = join(o.outDir, r.name);
  const playlist = await settleVariant(from, dir);
  if (playlist.segments.length === 0) throw new MediaProcessingError('the video could not be converted', true, `${r.name} has no segments`);
  const video = await videoCodecFromInit(join(dir, playlist.initFile));
  const rendition = video ? { ...r, codecs: [video, ...r.codecs.split(',').slice(1)].join(',') } : r;
  return { rendition, playlist, ...(await measureBandwidth(dir, playlist)) };
}

async function settle(o: ProcessOptions, plan: LadderPlan, workDir: string): Promise<{ ladder: SettledVariant[]; starter?: SettledVariant }> {
  const ladder = [];
  for (const [i, r] of plan.renditions.entries()) ladder.push(await settleOne(o, r, join(workDir, `v${i}`)));
  if (!plan.starter) return { ladder };
  return { ladder, starter: await settleOne(o, plan.starter, join(workDir, STARTER_WORK_FOLDER)) };
}

const described = (v: Variant): Rendition => ({
  name: v.rendition.name,
  width: v.rendition.width,
  height: v.rendition.height,
  bandwidth: v.peak,
  codecs: v.rendition.codecs,
});

async function emptyFolder(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => []);
  await Promise.all(entries.map((e) => rm(join(dir, e), { recursive: true, force: true })));
}

/**
 * The header's facts, checked against the caps, with the duration the packets measure: the header
 * can claim 4 s for 600 s of frames (docs/decisions/0021-hostile-media.md).
 */
async function probeAndMeasure(o: ProcessOptions): Promise<ProbeResult> {
  const container = await sniffContainer(o.source);
  const p = await probe(o.binaries.ffprobe, container, o.source, o.signal);
  const m = await measureStreams({
    ffprobe: o.binaries.ffprobe,
    container,
    source: o.source,
    videoIndex: p.videoIndex,
    headerMs: p.durationMs,
    signal: o.signal,
  });
  // The packets stop early in a cut-off file (its header, at the front, promised more).
  checkComplete(m.durationMs, p.durationMs, 'packets');
  return { ...p, durationMs: Math.min(m.durationMs || p.durationMs, MAX_DURATION_MS) };
}

/**
 * One uploaded original -> HLS renditions (fMP4, 2 s segments, aligned keyframes) and the starter rung, a master
 * playlist, small.mp4 and optionally poster.jpg, all in `outDir`. Throws MediaProcessingError for
 * files that cannot be processed.
 */
export async function processVideo(o: ProcessOptions): Promise<ProcessResult> {
  const report = progressReporter(o.onProgress);
  const p = await probeAndMeasure(o);
  const plan = planLadder(p);
  const workDir = join(o.outDir, '.encoding');
  try {
    report(0);
    checkEncode(await encode(o, p, plan, workDir, report), p);
    const { ladder: variants, starter } = await settle(o, plan, workDir);
    await writeFile(join(o.outDir, 'master.m3u8'), masterPlaylist(starter ? [starter, ...variants] : variants, plan.fpsValue));
    const smallest = variants[0]!;
    const derived = { ffmpeg: o.binaries.ffmpeg, nice: o.nice, threads: o.threads, signal: o.signal, scratch: workDir };
    await writeSmallMp4({ ...derived, dir: join(o.outDir, smallest.rendition.name), playlist: smallest.playlist }, join(o.outDir, 'small.mp4'));
    report(95);
    // The poster comes from the largest rendition no bigger than 540p: sharp enough for a card.
    const posterFrom = variants.filter((v) => Math.min(v.rendition.width, v.rendition.height) <= 540).pop() ?? smallest;
    const poster =
      o.makePoster &&
      (await writePoster({ ...derived, dir: join(o.outDir, posterFrom.rendition.name), playlist: posterFrom.playlist }, join(o.outDir, 'poster.jpg')));
    report(100);
    return {
      renditions: variants.map(described),
      durationMs: p.durationMs,
      hasAudio: p.hasAudio,
      poster,
      ...(starter ? { starter: described(starter) } : {}),
    };
  } catch (e) {
    await emptyFolder(o.outDir);
    throw e;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
