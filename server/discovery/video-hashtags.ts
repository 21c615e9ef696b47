import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { hashtagsOf } from '#sync/protocol/hashtags';

// A video is filed under its tags while it is ready (db/migrations/0019_discovery.ts): its first
// ready, an edit of its title or description, and its deletion each bring video_hashtags in line
// with its texts, in the caller's transaction. A tag's videos_count moves by the rows really
// inserted or deleted, never by a count read and written back, and the tags are touched in sorted
// order so that two videos sharing tags lock their hashtags rows in the same order (no deadlock).
// Each video_hashtags row has its video_hashtags_top row (db/migrations/0021_hashtags_top.ts), keyed
// by the video's likes_count of the moment: the trigger moves it with every like, so the count read
// here in the same transaction (the caller holds the video's row) finds it by its whole key.

type Trx = Transaction<Database>;
type FiledVideo = { id: string; created_at: number; likes_count: number };
type Filed = { tag: string; created_at: number };

async function addTags(trx: Trx, video: FiledVideo, tags: string[], now: number): Promise<void> {
  for (const tag of tags) {
    await trx
      .insertInto('hashtags')
      .values({ tag, videos_count: 0, hidden: 0, created_at: now })
      .onConflict((oc) => oc.column('tag').doNothing())
      .execute();
    const added = await trx
      .insertInto('video_hashtags')
      .values({ tag, video_id: video.id, created_at: video.created_at })
      .onConflict((oc) => oc.columns(['tag', 'video_id']).doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
      await trx.insertInto('video_hashtags_top').values({ tag, likes_count: video.likes_count, created_at: video.created_at, video_id: video.id }).execute();
      await trx
        .updateTable('hashtags')
        .set((eb) => ({ videos_count: eb('videos_count', '+', 1) }))
        .where('tag', '=', tag)
        .execute();
    }
  }
}

async function removeTags(trx: Trx, videoId: string, likes: number, filed: Filed[]): Promise<void> {
  for (const { tag, created_at } of filed) {
    const gone = await trx.deleteFrom('video_hashtags').where('tag', '=', tag).where('video_id', '=', videoId).executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) {
      await trx
        .deleteFrom('video_hashtags_top')
        .where('tag', '=', tag)
        .where('likes_count', '=', likes)
        .where('created_at', '=', created_at)
        .where('video_id', '=', videoId)
        .execute();
      await trx
        .updateTable('hashtags')
        .set((eb) => ({ videos_count: eb('videos_count', '-', 1) }))
        .where('tag', '=', tag)
        .execute();
    }
  }
}

const byTag = (a: Filed, b: Filed) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);

const filedOf = (trx: Trx, videoId: string): Promise<Filed[]> =>
  trx.selectFrom('video_hashtags').select(['tag', 'created_at']).where('video_id', '=', videoId).execute();

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
  const filed = await filedOf(trx, videoId);
  // A video that is gone has no rows left (its video_hashtags went with it by the cascade).
  if (video) await removeTags(trx, videoId, video.likes_count, filed.filter((f) => !wanted.has(f.tag)).sort(byTag));
  const fresh = [...wanted].filter((tag) => !filed.some((f) => f.tag === tag)).sort();
  if (video && fresh.length) await addTags(trx, video, fresh, now);
}

/** Takes video `videoId` off every tag it is filed under (before its row is deleted). */
export async function unfileVideo(trx: Trx, videoId: string): Promise<void> {
  const video = await trx.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirst();
  if (video) await removeTags(trx, videoId, video.likes_count, (await filedOf(trx, videoId)).sort(byTag));
}
