import { MediaProcessingError } from './errors';
import { MAX_PIXELS, MAX_SIDE, MAX_SOURCE_FPS, MAX_STREAM_MS, seconds, tooLargeReason, tooLongReason } from './limits';
import type { FfprobeOutput, FfprobeStream } from './probe';
/** 29.97 is 30000/1001 and a muxer's average is a rounding: a little over the cap is still the cap. */
const FPS_TOLERANCE = 1.02;

function averageFps(s: FfprobeStream): number | undefined {
  // Only the average: r_frame_rate is a guess that reads 90000/1 on some variable-rate phone clips.
  const [num, den] = (s.avg_frame_rate ?? '').split('/').map(Number);
  return num && den ? num / den : undefined;
}

function checkPicture(v: FfprobeStream): void {
  const w = v.width ?? 0;
  const h = v.height ?? 0;
  if (Math.max(w, h) > MAX_SIDE || w * h > MAX_PIXELS) throw new MediaProcessingError(tooLargeReason(`${w}x${h}`), true);
  const fps = averageFps(v);
  if (fps && fps > MAX_SOURCE_FPS * FPS_TOLERANCE) throw new MediaProcessingError(tooLargeReason(`${Math.round(fps)} frames a second`), true);
}

/** What a stream's header claims, in ms and in words: its duration, or its frame count over its frame rate. */
function claims(s: FfprobeStream): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const duration = Number(s.duration) * 1000;
  if (Number.isFinite(duration)) out.push([duration, `a track's header says ${seconds(duration)} seconds`]);
  const fps = averageFps(s);
  const frames = Number(s.nb_frames);
  if (fps && frames > 0)
    out.push([(frames / fps) * 1000, `${frames} frames at ${Math.round(fps * 100) / 100} a second last ${seconds((frames / fps) * 1000)} seconds`]);
  return out;
}

/**
 * The caps of limits.ts on what the header says, before anything is decoded. The header can lie
 * the other way too (say 4 s for 600): measureStreams then reads the real timestamps.
 */
export function checkHeaderLimits(out: FfprobeOutput, v: FfprobeStream): void {
  checkPicture(v);
  const movie = Number(out.format?.duration) * 1000 || 0;
  const all: Array<[number, string]> = [[movie, `its header says ${seconds(movie)} seconds`], ...(out.streams ?? []).flatMap(claims)];
  const over = all.find(([ms]) => ms > MAX_STREAM_MS);
  if (over) throw new MediaProcessingError(tooLongReason(over[1]), true);
}
