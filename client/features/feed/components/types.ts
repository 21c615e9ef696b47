/** A feed card's data as the feed hook gives it (GET /api/videos item + local pending flag). */
export interface FeedVideo {
  id: string;
  user_id: string;
  user_name: string | null;
  title: string;
  description: string | null;
  video_url: string | null;
  poster_url: string | null;
  created_at: number | string;
  duration_ms?: number | null;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  views_count: number;
  liked_by_me: boolean;
  pending?: boolean;
  /** A queued upload of this member (no video_url yet). */
  upload?: { progress: number; status: string; error: string | null };
}

export interface FeedCardActions {
  setLike(videoId: string, liked: boolean): void;
  openComments(video: FeedVideo): void;
  share(video: FeedVideo): void;
  remove(video: FeedVideo): void;
  recordView(videoId: string, watchedMs: number): void;
}
