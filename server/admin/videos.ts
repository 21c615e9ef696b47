import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { encodeTimeCursor, type TimeCursor } from './cursor';
import type { AdminVideo } from '#sync/rest-api/admin';

/** Media keys are served under /media/ (the uploads area's Range-capable route). */
export const mediaUrl = (key: string) => `/media/${key.split('/').map(encodeURIComponent).join('/')}`;

/** Newest first, keyset-paged over the videos_feed index (created_at, id). */
export async function listVideos(db: Kysely<Database>, opts: { limit: number; cursor: TimeCursor | null }) {
  const rows = await videosPageQuery(db, opts).execute();
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    items: page.map((r): AdminVideo => ({
      id: r.id,
      user_id: r.user_id,
      user_name: r.user_name ?? 'Unknown User',
      title: r.title,
      description: r.description,
      video_url: mediaUrl(r.file_key),
      poster_url: r.poster_key ? mediaUrl(r.poster_key) : null,
      media_status: r.media_status as AdminVideo['media_status'],
      media_error: r.media_error,
      mime_type: r.mime_type,
      size_bytes: Number(r.size_bytes),
      duration_ms: r.duration_ms,
      created_at: Number(r.created_at),
      likes_count: r.likes_count,
      comments_count: r.comments_count,
      shares_count: r.shares_count,
      views_count: r.views_count,
    })),
    next_cursor: rows.length > opts.limit && last ? encodeTimeCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
  };
}

/** One page (plus one row); exported so a test can check its query plan. */
export function videosPageQuery(db: Kysely<Database>, opts: { limit: number; cursor: TimeCursor | null }) {
  let q = db
    .selectFrom('videos')
    .leftJoin('profiles', 'profiles.id', 'videos.user_id')
    .select([
      'videos.id',
      'videos.user_id',
      'profiles.name as user_name',
      'videos.title',
      'videos.description',
      'videos.file_key',
      'videos.poster_key',
      'videos.mime_type',
      'videos.media_status',
      'videos.media_error',
      'videos.size_bytes',
      'videos.duration_ms',
      'videos.created_at',
      'videos.likes_count',
      'videos.comments_count',
      'videos.shares_count',
      'videos.views_count',
    ])
    .orderBy('videos.created_at', 'desc')
    .orderBy('videos.id', 'desc')
    .limit(opts.limit + 1);
  if (opts.cursor) {
    const { createdAt, id } = opts.cursor;
    q = q.where((eb) => eb.or([eb('videos.created_at', '<', createdAt), eb.and([eb('videos.created_at', '=', createdAt), eb('videos.id', '<', id)])]));
  }
  return q;
}
