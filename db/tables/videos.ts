import type { Generated } from 'kysely';

// Videos, their uploads, and what members do with them.
// Times are integer milliseconds since the epoch; booleans are 0/1 integers (db/schema.ts).

export interface VideosTable {
  id: string;
  user_id: string;
  title: string;
  description: string;
  /** Path of the media file under DATA_DIR/media, e.g. {userId}/{timestamp}-{safe name}. */
  file_key: string;
  mime_type: string;
  size_bytes: number;
  duration_ms: number;
  sha256: string;
  poster_key: string | null;
  created_at: number;
  /** 'processing' | 'ready' | 'failed' (docs/media.md); defaults to 'ready' for rows inserted directly. */
  media_status: Generated<string>;
  /** Why processing failed, shown to the uploader and to admins. */
  media_error: string | null;
  /** 0-100 while processing. */
  media_progress: Generated<number>;
  /** The folder of the current outputs under DATA_DIR/media ({userId}/{videoId}/{jobId}), or null before the first. */
  media_key: string | null;
  captions_key: string | null;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  views_count: number;
  /** The comment its owner pinned (shown first), or null. */
  pinned_comment_id: Generated<string | null>;
}

export interface UploadsTable {
  /** The tus upload id. */
  id: string;
  user_id: string;
  video_id: string;
  title: string;
  description: string;
  filename: string;
  filetype: string;
  size_bytes: number | null;
  /** 'uploading' | 'completed' | 'rejected' | 'expired' */
  status: string;
  reason: string | null;
  /** A poster sent before the video existed (migration 0002); moved to the video when it is created. */
  poster_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface LikesTable {
  video_id: string;
  user_id: string;
  created_at: number;
}

export interface CommentsTable {
  id: string;
  video_id: string;
  user_id: string;
  /** Emptied when the comment is deleted and stays as a tombstone. */
  content: string;
  created_at: number;
  /** The top-level comment a reply is under; null for a top-level comment. */
  parent_id: Generated<string | null>;
  /** Whom a reply answers (shown as @handle); null for a top-level comment. */
  reply_to_user_id: Generated<string | null>;
  reply_count: Generated<number>;
  likes_count: Generated<number>;
  /** 1: a tombstone ("Comment deleted") kept for its replies. */
  deleted: Generated<number>;
  /** 1: the comment its video's owner pinned (videos.pinned_comment_id). */
  pinned: Generated<number>;
}

export interface CommentLikesTable {
  comment_id: string;
  user_id: string;
  video_id: string;
  created_at: number;
}

export interface ViewsTable {
  video_id: string;
  user_id: string;
  watched_ms: number;
  created_at: number;
}

export interface SharesTable {
  id: string;
  video_id: string;
  user_id: string;
  created_at: number;
}

/** A tag and how many ready videos carry it (db/migrations/0019_discovery.ts). */
export interface HashtagsTable {
  /** NFKC, lower case (sync/protocol/hashtags.ts). */
  tag: string;
  videos_count: Generated<number>;
  /** 1 when an admin hid it from search and its page. */
  hidden: Generated<number>;
  created_at: number;
}

/** A ready video filed under one of its tags; created_at is the video's, for the tag page's "recent" order. */
export interface VideoHashtagsTable {
  tag: string;
  video_id: string;
  created_at: number;
}

/** The tag page's "top" order (migration 0021): one row per video_hashtags row, keyed by the order, likes_count kept equal to the video's by a trigger. */
export interface VideoHashtagsTopTable {
  tag: string;
  likes_count: number;
  created_at: number;
  video_id: string;
}
