import type { VideoFacts } from './plan';

/** What the page asks the shrink worker (shrink.worker.ts). */
export type ShrinkRequest =
  { kind: 'probe'; file: File } | { kind: 'shrink'; file: File; width: number; height: number; frameRate: number | null; videoBitrate: number };

/** What the shrink worker answers; `done` carries the output's bytes, transferred, not copied. */
export type ShrinkReply =
  | { kind: 'facts'; facts: VideoFacts | null }
  | { kind: 'progress'; fraction: number }
  | { kind: 'done'; bytes: ArrayBuffer; mimeType: string; extension: 'mp4' | 'webm' }
  | { kind: 'error'; message: string };
