/**
 * What a source may be before anything decodes it (docs/decisions/0021-hostile-media.md). The
 * caps fit every phone video up to 4K at 60 frames a second, upright or sideways, and stop the
 * files whose only purpose is to keep a worker busy.
 */

import { MAX_DURATION_MS } from '#sync/protocol/limits';

/**
 * How far past MAX_DURATION_MS the frames may run: a last frame's own length and AAC's 21 ms
 * frames take a header-exact 2:00 clip a little past it.
 */
export const DURATION_SLACK_MS = 500;
/** The longest any stream of a source may run, by its header or by its packets. */
export const MAX_STREAM_MS = MAX_DURATION_MS + DURATION_SLACK_MS;
/** The longest side of a coded picture: DCI 4K (4096x2160) and portrait UHD (2160x3840) fit. */
export const MAX_SIDE = 4096;
/** Pixels in one picture: 4096x2304 (16:9 at the widest 4K), also given to the decoders (`-max_pixels`). */
export const MAX_PIXELS = 4096 * 2304;
/** Source frames a second: 4K60 and 1080p120 fit; 240 fps slow motion as recorded does not. */
export const MAX_SOURCE_FPS = 120;
/** The most frames a video track may hold: the top rate for the whole length. */
export const MAX_VIDEO_FRAMES = Math.ceil((MAX_SOURCE_FPS * MAX_STREAM_MS) / 1000);
/**
 * The most packets any track may hold: 1000 a second for the whole length, far above audio's 47
 * (AAC at 48 kHz) to 400 (Opus's shortest frames), so millions of tiny packets cannot stall a worker.
 */
export const MAX_STREAM_PACKETS = Math.ceil((1000 * MAX_STREAM_MS) / 1000);

export const TOO_LARGE = "This video's picture is too large";
export const TOO_LONG = 'This video is longer than 2 minutes';

/** Seconds for a sentence, to a tenth. */
export const seconds = (ms: number) => `${Math.round(ms / 100) / 10}`;

/** The refusals' sentences for a member: what was found, against what is allowed. */
export const tooLargeReason = (found: string) =>
  `${TOO_LARGE} (${found}; at most ${MAX_SIDE} pixels a side, ${MAX_PIXELS.toLocaleString('en')} in all and ${MAX_SOURCE_FPS} frames a second)`;
export const tooLongReason = (found: string) => `${TOO_LONG} (${found})`;
