import { childFailure, MediaProcessingError } from './errors';
import { MAX_SOURCE_FPS, MAX_STREAM_MS, MAX_STREAM_PACKETS, MAX_VIDEO_FRAMES, seconds, tooLargeReason, tooLongReason } from './limits';
import { runChild } from './run-child';
import { inputArgs, type SourceContainer } from './source-input';

/** What the packets say, as opposed to the headers: the timestamps ffmpeg will decode by. */
export interface Measured {
  /**
   * What plays: the longest stream from time 0 to its last packet's end, in whole ms. Packets
   * before 0 (AAC's priming, cut by the edit list) are not shown; the limit counts them anyway.
   */
  durationMs: number;
  /** Packets (frames) of the video stream that is processed. */
  videoFrames: number;
}

interface Span {
  count: number;
  first: number;
  end: number;
}

const spanMs = (s: Span) => Math.max(0, s.end - s.first) * 1000;

/** One `stream_index,pts_time,dts_time,duration_time` line into the stream's span; N/A fields are skipped. */
function addPacket(spans: Map<number, Span>, line: string): Span | undefined {
  const [index, pts, dts, duration] = line.split(',').map((f) => (f === '' || f === 'N/A' ? Number.NaN : Number(f)));
  const at = Number.isFinite(pts) ? (pts as number) : (dts as number);
  if (!Number.isInteger(index) || !Number.isFinite(at)) return undefined;
  const s = spans.get(index as number) ?? { count: 0, first: at, end: at };
  s.count++;
  s.first = Math.min(s.first, at);
  s.end = Math.max(s.end, at + (Number.isFinite(duration) && (duration as number) > 0 ? (duration as number) : 0));
  spans.set(index as number, s);
  return s;
}

/** A refusal as soon as one stream shows it: the rest of a hostile file is never read. */
function overLimit(s: Span, isVideo: boolean, headerMs: number): MediaProcessingError | undefined {
  if (spanMs(s) > MAX_STREAM_MS) {
    return new MediaProcessingError(tooLongReason(`its frames run past ${seconds(spanMs(s))} seconds; its header says ${seconds(headerMs)}`), true);
  }
  if (isVideo && s.count > MAX_VIDEO_FRAMES) return new MediaProcessingError(tooLargeReason(`more than ${MAX_VIDEO_FRAMES} frames`), true);
  if (s.count > MAX_STREAM_PACKETS) return new MediaProcessingError(`the file holds more than ${MAX_STREAM_PACKETS} packets in one track`, true);
  return undefined;
}

/** Frames a second from the timestamps; one frame, or all on one instant past the first, says nothing / too much. */
function frameRate(s: Span): number {
  if (s.count < 2) return 0;
  const seconds = s.end - s.first;
  return seconds > 0 ? (s.count - 1) / seconds : Number.POSITIVE_INFINITY;
}

export interface MeasureInput {
  ffprobe: string;
  container: SourceContainer;
  source: string;
  /** ffprobe's index of the video stream that is processed. */
  videoIndex: number;
  /** The duration the header claims, for the refusal's sentence. */
  headerMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * Reads every packet's timestamps (demuxing only, nothing is decoded: a 2 minute 1080p file takes
 * a fraction of a second) and refuses a stream that runs longer than the product allows or a video
 * track with more frames than the top rate gives, whatever mvhd, tkhd or mdhd claim.
 */
export async function measureStreams(m: MeasureInput): Promise<Measured> {
  const spans = new Map<number, Span>();
  const stop = new AbortController();
  let refusal: MediaProcessingError | undefined;
  const args = ['-v', 'error', ...inputArgs(m.container, m.source), '-show_entries', 'packet=stream_index,pts_time,dts_time,duration_time', '-of', 'csv=p=0'];
  const res = await runChild({
    command: m.ffprobe,
    args,
    timeoutMs: 60_000,
    signal: m.signal ? AbortSignal.any([m.signal, stop.signal]) : stop.signal,
    onStdoutLine: (line) => {
      if (refusal) return;
      const s = addPacket(spans, line);
      refusal = s && overLimit(s, spans.get(m.videoIndex) === s, m.headerMs);
      if (refusal) stop.abort();
    },
  }).catch((e: unknown) => {
    if (refusal && stop.signal.aborted) throw refusal;
    throw e;
  });
  if (res.code !== 0) throw childFailure(res.code, res.stderr, 'the file is not a video that can be read');
  const video = spans.get(m.videoIndex);
  if (!video) throw new MediaProcessingError('the video track is empty', true);
  const fps = frameRate(video);
  // A little over the cap is rounding (29.97 is 30000/1001, a last frame's length is a guess).
  if (fps > MAX_SOURCE_FPS * 1.02) throw new MediaProcessingError(tooLargeReason(`${Math.round(fps)} frames a second`), true);
  const shown = [...spans.values()].map((s) => spanMs({ ...s, first: Math.max(0, s.first) }));
  return { durationMs: Math.round(Math.max(...shown)), videoFrames: video.count };
}
