import type { LocalFeedItem } from '#client/sync/queries';
import type { UploadStatus } from '#client/sync/uploads';

/**
 * A feed card's data: a video as the device shows it (the wire FeedItem plus whether queued changes
 * of this member touch it), or a queued upload of this member, which has no video_url yet and
 * carries its progress in `upload`.
 */
export interface FeedCard extends Omit<LocalFeedItem, 'video_url'> {
  video_url: string | null;
  upload?: { progress: number; status: UploadStatus; error: string | null };
}

export interface FeedCardActions {
  setLike(videoId: string, liked: boolean): void;
  openComments(video: FeedCard): void;
  share(video: FeedCard): void;
  remove(video: FeedCard): void;
  /** A failed upload's card: send it again, from where the server is. */
  retryUpload(videoId: string): void;
  /** A queued or failed upload's card: stop it and forget the file. */
  removeUpload(videoId: string): void;
  recordView(videoId: string, watchedMs: number): void;
}
