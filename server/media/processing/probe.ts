import { childFailure, MediaProcessingError } from './errors';
import { tooLargeReason } from './limits';
import { checkHeaderLimits } from './probe-limits';
import { runChild } from './run-child';
import { inputArgs, type SourceContainer } from './source-input';

/** What the pipeline needs to know about a source, in display orientation terms where it matters. */
export interface ProbeResult {
  /** The demuxer every later run is told to use. */
  container: SourceContainer;
  /** ffprobe's index of the video stream (the first one that is not a cover picture). */
  videoIndex: number;
  /** Stored (coded) size, before rotation. */
  width: number;
  height: number;
  /** Clockwise display rotation in degrees: 0, 90, 180 or 270. */
  rotation: number;
  /** Size as shown, after rotation: what the ladder scales from. */
  displayWidth: number;
  displayHeight: number;
  /** Average frame rate as a fraction; variable-rate sources report their average. */
  fps: { num: number; den: number };
  pixFmt: string;
  bitDepth: number;
  colorTransfer: string | undefined;
  hasAudio: boolean;
  /** What the header says until processVideo replaces it with what the packets measure. */
  durationMs: number;
}

export interface FfprobeStream {
  index?: number;
  codec_type?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  bits_per_raw_sample?: string;
  color_transfer?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  tags?: Record<string, string>;
  disposition?: Record<string, number>;
  side_data_list?: Array<{ rotation?: number | string }>;
}

export interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string };
}

const refuse = (reason: string, detail?: string) => new MediaProcessingError(reason, true, detail);

function parseRate(s: string | undefined): { num: number; den: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(s ?? '');
  if (!m) return undefined;
  const num = Number(m[1]);
  const den = Number(m[2]);
  return num > 0 && den > 0 ? { num, den } : undefined;
}

/** Average frame rate as a fraction; variable-rate sources report their average. */
export const frameRateOf = (s: FfprobeStream) => parseRate(s.avg_frame_rate) ?? parseRate(s.r_frame_rate);

/** The display matrix (newer muxers) wins over the legacy rotate tag; both can be negative. */
function rotationOf(s: FfprobeStream): number {
  const fromMatrix = s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const raw = Number(fromMatrix ?? s.tags?.rotate ?? 0);
  if (!Number.isFinite(raw)) return 0;
  return (((Math.round(raw / 90) * 90) % 360) + 360) % 360;
}

function bitDepthOf(s: FfprobeStream): number {
  const m = /p(9|10|12|14|16)(le|be)$/.exec(s.pix_fmt ?? '');
  if (m) return Number(m[1]);
  const raw = Number(s.bits_per_raw_sample);
  return Number.isFinite(raw) && raw > 8 ? raw : 8;
}

function durationOf(out: FfprobeOutput, v: FfprobeStream): number {
  for (const d of [out.format?.duration, v.duration]) {
    const seconds = Number(d);
    if (Number.isFinite(seconds) && seconds > 0) return Math.round(seconds * 1000);
  }
  throw refuse('the video has no duration (the file may be empty or damaged)');
}

function videoStream(out: FfprobeOutput): FfprobeStream {
  // A cover picture in an audio file is a "video" stream too; it is not a video.
  const v = out.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!v) throw refuse('the file has no video track');
  if (!v.width || !v.height || !v.pix_fmt) throw refuse('the video could not be decoded', 'no picture size or pixel format');
  if (v.nb_frames === '0') throw refuse('the video track is empty');
  return v;
}

/** What ffprobe printed, checked against the caps (probe-limits.ts) before anything is decoded. */
export function parseProbe(out: FfprobeOutput, container: SourceContainer): ProbeResult {
  const v = videoStream(out);
  checkHeaderLimits(out, v);
  const width = v.width as number;
  const height = v.height as number;
  const rotation = rotationOf(v);
  const sideways = rotation % 180 === 90;
  return {
    container,
    videoIndex: v.index ?? 0,
    width,
    height,
    rotation,
    displayWidth: sideways ? height : width,
    displayHeight: sideways ? width : height,
    fps: frameRateOf(v) ?? { num: 30, den: 1 },
    pixFmt: v.pix_fmt as string,
    bitDepth: bitDepthOf(v),
    colorTransfer: v.color_transfer,
    hasAudio: out.streams?.some((s) => s.codec_type === 'audio') ?? false,
    durationMs: durationOf(out, v),
  };
}

/** Reads a source with ffprobe, told its container. Anything ffprobe cannot read is refused for good. */
export async function probe(ffprobe: string, container: SourceContainer, source: string, signal?: AbortSignal): Promise<ProbeResult> {
  const args = ['-v', 'error', ...inputArgs(container, source), '-print_format', 'json', '-show_format', '-show_streams'];
  const res = await runChild({ command: ffprobe, args, timeoutMs: 60_000, signal });
  if (res.code !== 0) throw probeFailure(res.code, res.stderr);
  let out: FfprobeOutput;
  try {
    out = JSON.parse(res.stdout) as FfprobeOutput;
  } catch {
    throw refuse('the file is not a video that can be read', 'ffprobe printed no JSON');
  }
  return parseProbe(out, container);
}

/** The decoders' pixel cap (source-input.ts) makes ffprobe fail outright on a huge picture: say so. */
function probeFailure(code: number | null, stderr: string): MediaProcessingError {
  const reason = /exceeds specified max pixel count/.test(stderr) ? tooLargeReason('a picture over the pixel cap') : 'the file is not a video that can be read';
  return childFailure(code, stderr, reason);
}
