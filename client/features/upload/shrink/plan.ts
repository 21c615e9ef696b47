/**
 * When shrinking before upload is worth offering, and what it aims for (docs/pwa.md, "Shrink before
 * upload"). Pure: the worker measures, the dialog asks, this decides.
 */

/** What the worker read from the picked file's primary video track. */
export interface VideoFacts {
  width: number;
  height: number;
  durationSec: number;
  /** Average bits per second of the video track (0 when unknown). */
  videoBitrate: number;
  /** Average bits per second of the audio track (0 without one). */
  audioBitrate: number;
  frameRate: number;
  /** True when this browser can encode a video codec the server accepts at the target size. */
  canEncode: boolean;
}

export const TARGET_SHORT_SIDE = 720;
export const TARGET_VIDEO_BITRATE = 2_000_000;
/** Above this the video is worth shrinking even at 720p or less. */
export const HEAVY_BITRATE = 4_000_000;
export const MAX_FRAME_RATE = 30;
/** Audio is copied as it is when the output container takes it; this is the cap counted when it is not. */
export const AUDIO_BITRATE = 96_000;

/** The output's size: the shorter side at most 720, the aspect kept, both sides even (4:2:0 encoders need it). */
export function targetSize(width: number, height: number): { width: number; height: number } {
  const short = Math.min(width, height);
  const scale = short > TARGET_SHORT_SIDE ? TARGET_SHORT_SIDE / short : 1;
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/** True when the file is larger than 720p or heavier than about 4 Mbit/s, and this browser can shrink it. */
export function worthShrinking(v: VideoFacts): boolean {
  if (!v.canEncode || v.width <= 0 || v.height <= 0) return false;
  return Math.min(v.width, v.height) > TARGET_SHORT_SIDE || v.videoBitrate > HEAVY_BITRATE;
}

/** The shrunk file's expected size in bytes (the container's overhead is a few per cent). */
export function estimatedBytes(v: VideoFacts): number {
  const video = v.videoBitrate > 0 ? Math.min(v.videoBitrate, TARGET_VIDEO_BITRATE) : TARGET_VIDEO_BITRATE;
  const audio = Math.min(v.audioBitrate, AUDIO_BITRATE * 2);
  return Math.round((((video + audio) * v.durationSec) / 8) * 1.03);
}

/** "1080p" for a 1920x1080 or 1080x1920 video: the name people know sizes by. */
export function qualityName(width: number, height: number): string {
  return `${Math.min(width, height)}p`;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** The shrunk file's name: the original's stem, marked 720p, with the output container's extension. */
export function shrunkName(original: string, extension: 'mp4' | 'webm'): string {
  const stem = original.replace(/\.[^./\\]+$/, '') || 'video';
  return `${stem}-720p.${extension}`;
}
