import type { MediaStore } from '../../storage/media-store';

/**
 * The media runners (and media stores) of this process, reached without deps by code that has none
 * at hand: enqueueMediaJob wakes the runners, and deleteVideoInTx stops a video's running ffmpeg and
 * removes its media folder after the commit (its callers pass only a transaction and Changes).
 */
export interface MediaHost {
  media: MediaStore;
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

/**
 * After a video's deletion committed: stops its ffmpeg in this process (the runner sees the video
 * gone and cleans up after itself too), then removes the whole `{userId}/{videoId}/` folder from
 * every store a host of this process registered (one in practice).
 *
 * A worker in another process or on another machine is not reached from here: the deleting
 * transaction ended the video's jobs (endJobsOfVideo), so that worker's next heartbeat, at most a
 * third of MEDIA_LEASE_SECONDS later, matches no running row and aborts its ffmpeg; the lease fence
 * before its publish refuses it too; and a publish that slipped past the fence just before the
 * deletion is removed by its own final write, which finds the row gone (run-job.ts).
 */
export async function videoMediaDeleted(userId: string, videoId: string): Promise<void> {
  const stores = new Set<MediaStore>();
  await Promise.all(
    [...hosts].map((h) => {
      stores.add(h.media);
      return h.abortVideo(videoId);
    }),
  );
  await Promise.all([...stores].map((s) => s.deleteFolder(videoFolderKey(userId, videoId))));
}
