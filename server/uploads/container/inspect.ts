import { ContainerError, type ByteSource, type VideoInfo } from './byte-source';
import { inspectMp4, looksLikeMp4 } from './mp4';
import { inspectWebm, looksLikeEbml } from './webm';
import { MAX_DURATION_MS } from '#sync/protocol/limits';

/** Identifies the container by its first bytes (never by name or declared type) and reads its duration. */
export async function inspectVideo(src: ByteSource): Promise<VideoInfo> {
  const head = await src.read(0, 16);
  if (looksLikeMp4(head)) return inspectMp4(src);
  if (looksLikeEbml(head)) return inspectWebm(src);
  throw new ContainerError('unsupported_format', 'The file is not a supported video (MP4, QuickTime or WebM).');
}

/** Like inspectVideo, and refuses anything longer than two minutes. */
export async function checkVideo(src: ByteSource): Promise<VideoInfo> {
  const info = await inspectVideo(src);
  if (info.durationMs > MAX_DURATION_MS) {
    const secs = Math.round(info.durationMs / 1000);
    throw new ContainerError('video_too_long', `The video is ${secs} seconds long; videos may be at most 2 minutes (${MAX_DURATION_MS / 1000} seconds).`);
  }
  return info;
}
