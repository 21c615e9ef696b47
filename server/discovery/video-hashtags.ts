import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { hashtagsOf } from '#sync/protocol/hashtags';

// A video is filed under its tags while it is ready (db/migrations/0019_discovery.ts): its first
// ready, an edit of its title or description, and its deletion each bring video_hashtags in line
// with its texts, in the caller's transaction. A tag's videos_count moves by the rows really
// inserted or deleted, never by a count read and written back, and the tags are touched in sorted
// order so that two videos sharing tags lock their hashtags rows in the same order (no deadlock).

type Trx = Transaction<Database>;

async function addTags(trx: Trx, video: { id: string; created_at: number; likes_count: number }, tags: string[], now: number): Promise<void> {
  for (const tag of tags) {
    await trx
      .insertInto('hashtags')
      .values({ tag, videos_count: 0, hidden: 0, created_at: now })
      .onConflict((oc) => oc.column('tag').doNothing())
      .execute();
    const added = await trx
      .insertInto('video_hashtags')
      .values({ tag, video_id: video.id, created_at: video.created_at, likes_count: video.likes_count })
      .onConflict((oc) => oc.columns(['tag', 'video_id']).doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
      await trx
        .updateTable('hashtags')
        .set((eb) => ({ videos_count: eb('videos_count', '+', 1) }))
        .where('tag', '=', tag)
        .execute();
    }
  }
}

async function removeTags(trx: Trx, videoId: string, tags: string[]): Promise<void> {
  for (const tag of tags) {
    const gone = await trx.deleteFrom('video_hashtags').where('tag', '=', tag).where('video_id', '=', videoId).executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) {
      await trx
        .updateTable('hashtags')
        .set((eb) => ({ videos_count: eb('videos_count', '-', 1) }))
        .where('tag', '=', tag)
        .execute();
    }
  }
}

/**
 * Files video `videoId` under the tags its title and description carry now, if it is ready, and
 * under none otherwise (or when it is gone). Call it after the video's row has its new state: the
 * first ready, an edit; before deleting it, call unfileVideo.
 */
export async function fileVideo(trx: Trx, videoId: string, now: number): Promise<void> {
  const video = await trx
    .selectFrom('videos')
    .select(['id', 'title', 'description', 'created_at', 'likes_count', 'media_status'])
    .where('id', '=', videoId)
    .executeTakeFirst();
  const wanted = new Set(video?.media_status === 'ready' ? hashtagsOf(video.title, video.description) : []);
  const filed = (await trx.selectFrom('video_hashtags').select('tag').where('video_id', '=', videoId).execute()).map((r) => r.tag);
  const stale = filed.filter((tag) => !wanted.has(tag));
  const fresh = [...wanted].filter((tag) => !filed.includes(tag));
  const byTag = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  await removeTags(trx, videoId, stale.sort(byTag));
  if (video && fresh.length) await addTags(trx, video, fresh.sort(byTag), now);
}

/** Takes video `videoId` off every tag it is filed under (before its row is deleted). */
export async function unfileVideo(trx: Trx, videoId: string): Promise<void> {
  const filed = (await trx.selectFrom('video_hashtags').select('tag').where('video_id', '=', videoId).execute()).map((r) => r.tag);
  await removeTags(
    trx,
    videoId,
    filed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
