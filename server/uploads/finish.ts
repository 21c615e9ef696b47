import type { Selectable, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { UploadsTable } from '#db/tables/videos';
import { lockMember } from '#db/locks';
import type { AppDeps } from '../context';
import { safeFileName } from '../media/storage';
import { writeTx } from '../changes/write-tx';
import type { Changes } from '../changes/changes';
import { enqueueMediaJob } from '../media/jobs/queue';
import { wakeMediaRunners } from '../media/jobs/registry';
import { ContainerError, type VideoInfo } from './container/byte-source';
import { checkVideo } from './container/inspect';
import type { UploadArea } from './upload-area';
import { lockVideoId } from './video-lock';
import { processingRefusal } from './quotas';

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
    // Before the content check and the move, which a refusal would waste; decided again below.
    const busy = await processingRefusal(db, row.user_id, row.video_id);
    if (busy) return await reject(busy.code, busy.message);
    info = await checkVideo(src);
  } catch (e) {
    if (e instanceof ContainerError) return reject(e.code, e.message);
    throw e;
  } finally {
    await finished.close();
  }

  const now = deps.now();
  const base = safeFileName(row.filename.replace(/\.[A-Za-z0-9]{1,5}$/, '')).slice(0, 60);
  // The upload's id keeps two finishes in the same millisecond apart (same-named files would share
  // a key, and the one refused or dropped below would delete the other's original).
  const key = `${row.user_id}/${now}-${uploadId.slice(0, 12)}-${base}.${info.extension}`;
  const sha256 = await finished.keep(key, info.mimeType);

  let created: boolean;
  try {
    created = await writeTx(deps, (trx, changes) => insertVideoAndJob(trx, changes, row, { uploadId, key, size: src.size, info, sha256, now }));
  } catch (e) {
    // Refused under the lock (another finish of this member took the last place meanwhile): the
    // file kept above goes, and the upload is marked as any refused one.
    if (e instanceof UploadRejected) {
      await deps.media.delete([key]);
      await db.updateTable('uploads').set({ status: 'rejected', reason: e.message, updated_at: deps.now() }).where('id', '=', uploadId).execute();
    }
    throw e;
  }

  if (created) {
    if (!info.faststart) log.info(`video ${row.video_id}: MP4 without faststart (moov after mdat), stored unchanged`);
  } else {
    // The same video id finished twice (a retried upload): keep the first, drop this copy.
    await deps.media.delete([key]);
  }
  return { videoId: row.video_id, created };
}

interface Kept {
  uploadId: string;
  key: string;
  size: number;
  info: VideoInfo;
  sha256: string;
  now: number;
}

/**
 * Inserts the video row and its processing job (in `trx`); false when the video id already has its
 * row (the same video finished twice). Throws UploadRejected while the member has too many videos
 * in processing.
 */
async function insertVideoAndJob(trx: Transaction<Database>, changes: Changes, row: Selectable<UploadsTable>, kept: Kept): Promise<boolean> {
  const { uploadId, key, size, info, sha256, now } = kept;
  // The video id's lock orders this against a poster PUT (it lands on the upload before, or on
  // the video after) and against another finish of the same video id; the member's, against
  // their other finishes (the count of videos in processing).
  await lockVideoId(trx, row.video_id);
  await lockMember(trx, row.user_id);
  const busy = await processingRefusal(trx, row.user_id, row.video_id);
  if (busy) throw new UploadRejected(busy.code, busy.message);
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
      size_bytes: size,
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
}
