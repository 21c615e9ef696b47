import type { ShrinkReply, ShrinkRequest } from './messages';
import { shrunkName, targetSize, MAX_FRAME_RATE, type VideoFacts } from './plan';

/** True where this browser has WebCodecs' encoder: elsewhere nothing is offered and the original goes up. */
export const canShrinkHere = () => typeof VideoEncoder !== 'undefined' && typeof Worker !== 'undefined';

/** One job in its own worker; ending the job (done, failed or cancelled) ends the worker and frees its memory. */
function job(request: ShrinkRequest, onReply: (reply: ShrinkReply) => boolean): { cancel(): void } {
  // The worker (and mediabunny inside it) is fetched only here, once a shrink is worth asking about.
  const worker = new Worker(new URL('./shrink.worker.ts', import.meta.url), { type: 'module', name: 'shrink' });
  const end = () => worker.terminate();
  worker.onmessage = (e: MessageEvent<ShrinkReply>) => {
    if (onReply(e.data)) end();
  };
  worker.onerror = (e) => {
    e.preventDefault();
    onReply({ kind: 'error', message: e.message || 'The shrink worker failed to start.' });
    end();
  };
  worker.postMessage(request);
  return { cancel: end };
}

/** Reads the picked video's size and bitrate, and whether this browser can shrink it; null if it cannot tell. */
export function probeVideo(file: File): Promise<VideoFacts | null> {
  return new Promise((resolve) => {
    job({ kind: 'probe', file }, (reply) => {
      if (reply.kind === 'progress') return false;
      resolve(reply.kind === 'facts' ? reply.facts : null);
      return true;
    });
  });
}

export interface ShrinkJob {
  /** The shrunk file, or a rejection (with the reason) when it could not be made or was cancelled. */
  result: Promise<File>;
  cancel(): void;
}

export class ShrinkCancelled extends Error {
  override name = 'ShrinkCancelled';
  constructor() {
    super('Shrinking was cancelled.');
  }
}

/** Shrinks `file` to 720p at about 2 Mbit/s, reporting progress from 0 to 1. */
export function shrinkVideo(file: File, facts: VideoFacts, onProgress: (fraction: number) => void): ShrinkJob {
  const size = targetSize(facts.width, facts.height);
  const frameRate = facts.frameRate > MAX_FRAME_RATE + 1 ? MAX_FRAME_RATE : null;
  let cancel = () => {};
  const result = new Promise<File>((resolve, reject) => {
    const running = job({ kind: 'shrink', file, ...size, frameRate, videoBitrate: facts.videoBitrate }, (reply) => {
      if (reply.kind === 'progress') {
        onProgress(reply.fraction);
        return false;
      }
      if (reply.kind === 'done') resolve(new File([reply.bytes], shrunkName(file.name, reply.extension), { type: reply.mimeType, lastModified: Date.now() }));
      else reject(new Error(reply.kind === 'error' ? reply.message : 'Unexpected answer from the shrink worker.'));
      return true;
    });
    cancel = () => {
      running.cancel();
      reject(new ShrinkCancelled());
    };
  });
  return { result, cancel: () => cancel() };
}
