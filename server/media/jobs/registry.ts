import { rm } from 'node:fs/promises';
import { mediaPath } from '../storage';

/**
 * The media runners (and media folders) of this process, reached without deps by code that has none
 * at hand: enqueueMediaJob wakes the runners, and deleteVideoInTx stops a video's running ffmpeg and
 * removes its media folder after the commit (its callers pass only a transaction and Changes).
 */
export interface MediaHost {
  mediaDir: string;
  /** Stops this process's running job of the video, if any; resolves once it has stopped. */
  abortVideo(videoId: string): Promise<void>;
  /** Looks for due jobs now instead of at the next poll. */
  wake(): void;
}

const hosts = new Set<MediaHost>();

/** Adds a host until the returned function is called (a runner's stop, a web process without a runner). */
export function registerMediaHost(host: MediaHost): () => void {
  hosts.add(host);
  return () => void hosts.delete(host);
}

export function wakeMediaRunners(): void {
  for (const h of hosts) h.wake();
}

/** A video folder's key: every output of every job of the video lives under it. */
export function videoFolderKey(userId: string, videoId: string): string {
  return `${userId}/${videoId}`;
}

/** Removes a folder under the media folder and everything in it; a missing one is fine. */
export async function removeMediaFolder(mediaDir: string, key: string): Promise<void> {
  // maxRetries: an ffmpeg that is just being stopped may still add a file while the tree goes (ENOTEMPTY).
  await rm(mediaPath(mediaDir, key), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
}

/**
 * After a video's deletion committed: stops its ffmpeg in this process (the runner sees the video
 * gone and cleans up after itself too), then removes the whole `{userId}/{videoId}/` folder.
 */
export async function videoMediaDeleted(userId: string, videoId: string): Promise<void> {
  const dirs = new Set<string>();
  await Promise.all(
    [...hosts].map((h) => {
      dirs.add(h.mediaDir);
      return h.abortVideo(videoId);
    }),
  );
  await Promise.all([...dirs].map((d) => removeMediaFolder(d, videoFolderKey(userId, videoId))));
}
