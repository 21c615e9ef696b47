import type { AppDeps } from '../context';
import { safeFileName } from '../media/storage';
import { writeTx } from '../changes/write-tx';
import { enqueueMediaJob } from '../media/jobs/queue';
import { wakeMediaRunners } from '../media/jobs/registry';
import { ContainerError } from './container/byte-source';
import { checkVideo } from './container/inspect';
import type { UploadArea } from './upload-area';
import { lockVideoId } from './video-lock';

export class UploadRejected extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Turns a fully received tus upload into a video: checks the content (container by magic bytes,
 * duration from the container), hashes it, moves it under media/ and inserts the video row,
 * idempotently by the client-chosen video id. A refused file is deleted and the reason kept on
 * the upload row, then thrown as UploadRejected for the client.
 */
export async function finishUpload(deps: AppDeps, uploadId: string, area: UploadArea): Promise<{ videoId: string; created: boolean }> {
  const { db, log } = deps;
  const row = await db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
  if (!row) throw new UploadRejected('upload_not_found', 'This upload is unknown to the server.');

  const finished = await area.open(uploadId);
  const reject = async (code: string, reason: string): Promise<never> => {
    await finished.discard();
    await db.updateTable('uploads').set({ status: 'rejected', reason, updated_at: deps.now() }).where('id', '=', uploadId).execute();
    throw new UploadRejected(code, reason);
  };

  let info;
  const src = finished.source;
  try {
    info = await checkVideo(src);
  } catch (e) {
    if (e instanceof ContainerError) return reject(e.code, e.message);
    throw e;
  } finally {
    await finished.close();
  }

  const now = deps.now();
  const base = safeFileName(row.filename.replace(/\.[A-Za-z0-9]{1,5}$/, '')).slice(0, 60);
  const key = `${row.user_id}/${now}-${base}.${info.extension}`;
  const sha256 = await finished.keep(key, info.mimeType);

  const created = await writeTx(deps, async (trx, changes) => {
    // The video id's lock orders this against a poster PUT (it lands on the upload before, or on
    // the video after) and against another finish of the same video id.
    await lockVideoId(trx, row.video_id);
    // Read here, not from `row`: a poster PUT may have landed while the file was checked. It may
    // also have been sent while an earlier upload of the same video was running.
    const posterKey =
      (await trx.selectFrom('uploads').select('poster_key').where('id', '=', uploadId).executeTakeFirst())?.poster_key ??
      (
        await trx
          .selectFrom('uploads')
          .select('poster_key')
          .where('video_id', '=', row.video_id)
          .where('user_id', '=', row.user_id)
          .where('poster_key', 'is not', null)
          .orderBy('updated_at', 'desc')
          .executeTakeFirst()
      )?.poster_key ??
      null;
    // The primary key decides: a video id that already has its row (the same video finished
    // twice) inserts nothing, and this copy is dropped.
    const inserted = await trx
      .insertInto('videos')
      .values({
        id: row.video_id,
        user_id: row.user_id,
        title: row.title,
        description: row.description,
        file_key: key,
        mime_type: info.mimeType,
        size_bytes: src.size,
        duration_ms: info.durationMs,
        sha256,
        poster_key: posterKey,
        created_at: now,
        // Only its uploader sees it until the job below has made its renditions (docs/media.md).
        media_status: 'processing',
        likes_count: 0,
        comments_count: 0,
        shares_count: 0,
        views_count: 0,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    await trx.updateTable('uploads').set({ status: 'completed', reason: null, updated_at: now }).where('id', '=', uploadId).execute();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    // In the row's transaction: a video never exists without the job that will process it.
    await enqueueMediaJob(trx, row.video_id, now);
    // Again once committed: on PostgreSQL the wake of the enqueue may claim before the commit, find
    // nothing and leave the job to the next poll.
    changes.videoListed(row.video_id).afterCommit(wakeMediaRunners);
    return true;
  });

  if (created) {
    if (!info.faststart) log.info(`video ${row.video_id}: MP4 without faststart (moov after mdat), stored unchanged`);
  } else {
    // The same video id finished twice (a retried upload): keep the first, drop this copy.
    await deps.media.delete([key]);
  }
  return { videoId: row.video_id, created };
}
