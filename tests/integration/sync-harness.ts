import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../server/context';

/**
 * Puts a finished video straight into the database, the way the upload pipeline leaves it (row +
 * change log), for sync tests that are not about uploading.
 */
export async function insertVideo(
  deps: AppDeps,
  ownerId: string,
  opts: { id?: string; title?: string; createdAt?: number; durationMs?: number } = {},
): Promise<string> {
  const id = opts.id ?? randomUUID();
  const at = opts.createdAt ?? deps.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('videos')
      .values({
        id,
        user_id: ownerId,
        title: opts.title ?? `Video ${id.slice(0, 4)}`,
        description: '',
        file_key: `${ownerId}/${at}-clip.mp4`,
        mime_type: 'video/mp4',
        size_bytes: 1000,
        duration_ms: opts.durationMs ?? 5000,
        sha256: '0'.repeat(64),
        poster_key: null,
        created_at: at,
        likes_count: 0,
        comments_count: 0,
        shares_count: 0,
        views_count: 0,
      })
      .execute();
    await trx.insertInto('change_log').values({ entity: 'video', entity_id: id, video_id: id, user_id: null, deleted: 0, created_at: at }).execute();
  });
  deps.pokes.notify(['feed']);
  return id;
}

/** The server's truth about one video: counters and the rows they count. */
export async function videoTruth(deps: AppDeps, videoId: string) {
  const v = await deps.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirst();
  const count = async (table: 'likes' | 'comments' | 'shares' | 'views') =>
    Number((await deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('video_id', '=', videoId).executeTakeFirstOrThrow()).n);
  return {
    exists: !!v,
    likes_count: v?.likes_count ?? 0,
    comments_count: v?.comments_count ?? 0,
    shares_count: v?.shares_count ?? 0,
    views_count: v?.views_count ?? 0,
    likes: await count('likes'),
    comments: await count('comments'),
    shares: await count('shares'),
    views: await count('views'),
  };
}
