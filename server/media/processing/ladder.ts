import { FIRST_SEGMENT_SECONDS, HLS_SEGMENT_SECONDS, LOWEST_RUNG_SHORT_SIDE, STARTER_RUNG_SHORT_SIDE } from '#sync/protocol/media';
/**
 * The rendition ladder: which sizes, bitrates and H.264 levels one source becomes. Pure, so the
 * rules (never upscale, "p" is the short side, even dimensions) are unit-tested without ffmpeg.
 */

export interface LadderInput {
  /** Size as displayed (after rotation). */
  displayWidth: number;
  displayHeight: number;
  fps: { num: number; den: number };
  hasAudio: boolean;
}

export interface PlannedRendition {
  /** 'v360': the folder name, from the short side. */
  name: string;
  width: number;
  height: number;
  /** Target video bitrate in bit/s, and the VBV peak x264 is held to. */
  videoBitrate: number;
  maxrate: number;
  bufsize: number;
  /** H.264 level times ten (31 = 3.1), the smallest that fits the frame size and rate. */
  level: number;
  /** The RFC 6381 string for the master playlist: avc1 High profile, plus AAC-LC when there is audio. */
  codecs: string;
  /** AAC bit/s when the source has audio. */
  audioBitrate: number;
  /** Nominal peak bit/s, used until the real segments are measured. */
  bandwidth: number;
}

export interface LadderPlan {
  renditions: PlannedRendition[];
  /**
   * The starter rung below the ladder (docs/decisions/0027-cold-start.md), when the source is larger
   * than it: encoded as a second output from the lowest rung's frames, listed in the master
   * playlist, but not one of `renditions` (small.mp4, the poster and data saver keep the ladder's).
   */
  starter?: PlannedRendition;
  /** Output frame rate: the source's, capped at 30, as an ffmpeg rational ("30", "30000/1001"). */
  fps: string;
  fpsValue: number;
  /** Frames per 2 s segment: a fixed GOP keeps keyframes aligned across renditions. */
  gop: number;
}

export const SEGMENT_SECONDS = HLS_SEGMENT_SECONDS;
export const FIRST_SEGMENT = FIRST_SEGMENT_SECONDS;
export const AUDIO_BITRATE = 128_000;
/** The starter rung: about 240p at 300 kbit/s of video and 64 kbit/s of audio, 0.36 Mbit/s in all. */
const STARTER_VIDEO_BITRATE = 300_000;
export const STARTER_AUDIO_BITRATE = 64_000;
const MAX_FPS = 30;

/** Short side -> video bitrate (bit/s). */
const RUNGS: ReadonlyArray<readonly [number, number]> = [
  [LOWEST_RUNG_SHORT_SIDE, 700_000],
  [540, 1_400_000],
  [720, 2_400_000],
  [1080, 4_500_000],
];

/** [level, max macroblocks per frame, max macroblocks per second] from H.264 Table A-1. */
const LEVELS: ReadonlyArray<readonly [number, number, number]> = [
  [30, 1620, 40500],
  [31, 3600, 108000],
  [32, 5120, 216000],
  [40, 8192, 245760],
  [42, 8704, 522240],
  [50, 22080, 589824],
  [51, 36864, 983040],
  [52, 36864, 2073600],
];

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

export function h264Level(width: number, height: number, fps: number): number {
  const mbs = Math.ceil(width / 16) * Math.ceil(height / 16);
  const fit = LEVELS.find(([, frame, rate]) => mbs <= frame && mbs * fps <= rate);
  return (fit ?? LEVELS[LEVELS.length - 1]!)[0];
}

export function codecsFor(level: number, hasAudio: boolean): string {
  const video = `avc1.6400${level.toString(16).padStart(2, '0')}`;
  return hasAudio ? `${video},mp4a.40.2` : video;
}

/** Integer and NTSC rates are kept exactly; an odd variable-rate average is rounded to whole frames. */
function outputFps(fps: { num: number; den: number }): { text: string; value: number } {
  const value = fps.num / fps.den;
  if (value >= MAX_FPS) return { text: String(MAX_FPS), value: MAX_FPS };
  if (fps.den === 1 || fps.den === 1001) return { text: `${fps.num}/${fps.den}`, value };
  const whole = Math.max(1, Math.round(value));
  return { text: String(whole), value: whole };
}

interface RenditionSpec {
  short: number;
  long: number;
  portrait: boolean;
  bitrate: number;
  audioBitrate: number;
}

function rendition({ short, long, portrait, bitrate, audioBitrate }: RenditionSpec, fps: number, hasAudio: boolean): PlannedRendition {
  const width = portrait ? short : long;
  const height = portrait ? long : short;
  const level = h264Level(width, height, fps);
  const maxrate = Math.round(bitrate * 1.5);
  return {
    name: `v${short}`,
    width,
    height,
    videoBitrate: bitrate,
    maxrate,
    bufsize: maxrate * 2,
    level,
    codecs: codecsFor(level, hasAudio),
    audioBitrate,
    bandwidth: maxrate + (hasAudio ? audioBitrate : 0),
  };
}

export function planLadder(probe: LadderInput): LadderPlan {
  const portrait = probe.displayHeight > probe.displayWidth;
  const srcShort = Math.min(probe.displayWidth, probe.displayHeight);
  const srcLong = Math.max(probe.displayWidth, probe.displayHeight);
  const fps = outputFps(probe.fps);
  const longFor = (short: number) => even((srcLong * short) / srcShort);
  const spec = (short: number, bitrate: number, audioBitrate = AUDIO_BITRATE) =>
    rendition({ short, long: longFor(short), portrait, bitrate, audioBitrate }, fps.value, probe.hasAudio);
  const fitting = RUNGS.filter(([short]) => short <= srcShort);
  const renditions =
    fitting.length > 0
      ? fitting.map(([short, bitrate]) => spec(short, bitrate))
      : // Smaller than the lowest rung: one rendition at its own size, never upscaled.
        [rendition({ short: even(srcShort), long: even(srcLong), portrait, bitrate: RUNGS[0]![1], audioBitrate: AUDIO_BITRATE }, fps.value, probe.hasAudio)];
  // Never upscaled, and only below a larger rung: a source of 240p or less is already small.
  const starter = srcShort > STARTER_RUNG_SHORT_SIDE ? spec(STARTER_RUNG_SHORT_SIDE, STARTER_VIDEO_BITRATE, STARTER_AUDIO_BITRATE) : undefined;
  return { renditions, ...(starter ? { starter } : {}), fps: fps.text, fpsValue: fps.value, gop: Math.max(1, Math.round(fps.value * SEGMENT_SECONDS)) };
}
