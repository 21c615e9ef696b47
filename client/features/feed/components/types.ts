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

/** What a feed card does (made by useFeedActions in ../api). */
export interface FeedActions {
  /** Likes (liked: true) or unlikes; idempotent, queued and shown at once. */
  setLike(videoId: string, liked: boolean): void;
  /** Reports watch time; repeated reports of one video are sent only while they can still count. */
  recordView(videoId: string, watchedMs: number): void;
  openComments(video: FeedCard): void;
  /** Opens the report dialog for another member's video; null signed out (nothing to send it with). */
  report: ((video: FeedCard) => void) | null;
  /** The share sheet or a copied link, then the share is recorded. */
  share(video: FeedCard): void;
  /** Deletes the member's own video, once they confirm. */
  remove(video: FeedCard): void;
  /** A failed upload's card: send it again, from where the server is. */
  retryUpload(videoId: string): void;
  /** A queued or failed upload's card: stop it and forget the file. */
  removeUpload(videoId: string): void;
}
