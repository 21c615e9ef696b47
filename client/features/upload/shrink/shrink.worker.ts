import {
  BlobSource,
  BufferTarget,
  Conversion,
  Input,
  MATROSKA,
  MP4,
  Mp4OutputFormat,
  Output,
  QTFF,
  Quality,
  WEBM,
  WebMOutputFormat,
  getFirstEncodableVideoCodec,
  type InputVideoTrack,
} from 'mediabunny';
import type { ShrinkReply, ShrinkRequest } from './messages';
import { TARGET_VIDEO_BITRATE, targetSize, type VideoFacts } from './plan';

// The whole of mediabunny lives in this worker: decoding, scaling and encoding never block the page,
// and terminating the worker is the surest cancel (client/features/upload/shrink/shrink-client.ts).

// Typed loosely: the project's DOM lib and the WebWorker lib cannot share one TypeScript program (client/sw/sw.ts).
interface WorkerScope {
  postMessage(message: ShrinkReply, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<ShrinkRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;
// The containers the server accepts (MP4, QuickTime, WebM); reading no others keeps the worker smaller.
const FORMATS = [MP4, QTFF, WEBM, MATROSKA];
const reply = (message: ShrinkReply, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

/** H.264 in MP4 first (what every player takes), else VP9 or VP8 in WebM; all three pass the server's checks. */
async function encodableCodec(width: number, height: number) {
  if (typeof VideoEncoder === 'undefined') return null;
  return getFirstEncodableVideoCodec(['avc', 'vp9', 'vp8'], { width, height, quality: new Quality({ bitrate: TARGET_VIDEO_BITRATE }) });
}

async function bitrateOf(track: { computePacketStats(n?: number): Promise<{ averageBitrate: number; averagePacketRate: number }> } | null) {
  if (!track) return { bitrate: 0, rate: 0 };
  // A sample of packets is enough to judge the bitrate; reading them all would walk a long file.
  const stats = await track.computePacketStats(300);
  return { bitrate: stats.averageBitrate, rate: stats.averagePacketRate };
}

async function probe(file: File): Promise<VideoFacts | null> {
  const input = new Input({ source: new BlobSource(file), formats: FORMATS });
  try {
    const video: InputVideoTrack | null = await input.getPrimaryVideoTrack();
    if (!video) return null;
    const audio = await input.getPrimaryAudioTrack();
    const [v, a, durationSec, decodable] = await Promise.all([bitrateOf(video), bitrateOf(audio), input.computeDuration(), video.canDecode()]);
    const width = video.displayWidth;
    const height = video.displayHeight;
    const target = targetSize(width, height);
    const canEncode = decodable && (await encodableCodec(target.width, target.height)) !== null;
    return { width, height, durationSec, videoBitrate: v.bitrate, audioBitrate: a.bitrate, frameRate: v.rate, canEncode };
  } finally {
    input.dispose();
  }
}

async function shrink(request: Extract<ShrinkRequest, { kind: 'shrink' }>): Promise<void> {
  const codec = await encodableCodec(request.width, request.height);
  if (!codec) throw new Error('This browser cannot encode video.');
  const mp4 = codec === 'avc';
  const target = new BufferTarget();
  // fastStart: the index before the media, as the server's upload check and streaming readers prefer.
  const format = mp4 ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat();
  const input = new Input({ source: new BlobSource(request.file), formats: FORMATS });
  const output = new Output({ format, target });
  try {
    const conversion = await Conversion.init({
      input,
      output,
      tracks: 'primary',
      showWarnings: false,
      video: {
        width: request.width,
        height: request.height,
        fit: 'contain',
        codec,
        quality: new Quality({ bitrate: Math.min(TARGET_VIDEO_BITRATE, request.videoBitrate || TARGET_VIDEO_BITRATE) }),
        ...(request.frameRate ? { frameRate: request.frameRate } : {}),
      },
      // Audio is copied when the container takes it; otherwise re-encoded to what this browser can.
      audio: { quality: new Quality('medium') },
    });
    // A lost sound track would be data the member did not agree to lose: refuse, and the original goes up.
    if (!conversion.isValid || conversion.discardedTracks.length > 0) {
      const why = conversion.discardedTracks.map((d) => `${d.track.type}: ${d.reason}`).join(', ');
      throw new Error(`Cannot shrink this video (${why || 'no usable track'}).`);
    }
    // mediabunny reports every frame; the page needs a message per whole percent, not thirty a second.
    let lastPercent = -1;
    conversion.onProgress = (fraction) => {
      const percent = Math.floor(fraction * 100);
      if (percent === lastPercent) return;
      lastPercent = percent;
      reply({ kind: 'progress', fraction });
    };
    await conversion.execute();
    const bytes = target.buffer;
    if (!bytes) throw new Error('The shrunk video is empty.');
    reply({ kind: 'done', bytes, mimeType: format.mimeType, extension: mp4 ? 'mp4' : 'webm' }, [bytes]);
  } finally {
    input.dispose();
  }
}

scope.onmessage = (event: MessageEvent<ShrinkRequest>) => {
  const request = event.data;
  const work = request.kind === 'probe' ? probe(request.file).then((facts) => reply({ kind: 'facts', facts })) : shrink(request);
  work.catch((err: unknown) => reply({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
};
