import type { WriteDeps } from '../../changes/write-tx';
import type { FfmpegBinaries } from '../processing/ffmpeg-binaries';
import type { ProcessOptions } from '../processing/process-video';
import type { MediaStore } from '../../storage/media-store';
import type { RetryPolicy } from './queue';

/** What the runner asks of the pipeline (server/media/processing: processVideo). */
export type ProcessVideoInput = ProcessOptions;
/** What the runner keeps of a result: whether a poster was made, and the duration the packets measured. */
export interface ProcessedVideo {
  poster: boolean;
  durationMs: number;
}
export type ProcessVideoFn = (input: ProcessVideoInput) => Promise<ProcessedVideo>;

export interface RunnerDeps extends WriteDeps {
  /** Where sources are read and outputs published: the disk or an S3 bucket shared by every worker. */
  media: MediaStore;
}

export interface RunnerOptions {
  binaries: FfmpegBinaries;
  processVideo: ProcessVideoFn;
  /** ffmpeg runs at a time in this runner. */
  concurrency: number;
  threads: number;
  /** x264's speed preset (MEDIA_X264_PRESET); processVideo's own default when absent. */
  preset?: string;
  nice: number;
  /** How long a claim holds a job without a heartbeat; a third of it is the heartbeat period. */
  leaseMs: number;
  /** How often to look for due jobs when nothing woke the runner. */
  pollMs: number;
  retry: RetryPolicy;
  workerId: string;
}

/** Why a running job was stopped from outside: its video was deleted, its lease lost, or the process is stopping. */
export type StopReason = 'deleted' | 'lost' | 'shutdown';
