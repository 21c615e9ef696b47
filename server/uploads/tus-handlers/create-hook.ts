import type { Upload } from '@tus/server';
import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockMember } from '#db/locks';
import type { AppDeps, AuthUser } from '#server/context';
import { errorBody } from '#server/http/errors';
import { parseUploadMetadata, type UploadMetadata } from '../metadata';
import { quotaRefusal, replaceEarlierUploads, UploadRefused } from '../quotas';
import { lockVideoId } from '../video-lock';

/** An error a tus hook throws: @tus/server answers it with this status and body. */
export const hookError = (status: number, code: string, message: string) => ({ status_code: status, body: JSON.stringify(errorBody(code, message)) });

/**
 * The creation hook's work: checks what a POST declared and takes the member's slot with the
 * `uploads` row. Returns the ids of the member's earlier uploads of the same video it replaced.
 * `onRetryAfter` hears the wait of a refusal (tus hooks cannot set headers).
 */
export async function createUploadRow(deps: AppDeps, user: AuthUser | undefined, upload: Upload, onRetryAfter: (seconds: number) => void): Promise<string[]> {
  if (!user) throw hookError(401, 'unauthorized', 'Sign in to continue.');
  if (upload.sizeIsDeferred || upload.size === undefined) throw hookError(400, 'length_required', 'Upload-Length is required.');
  if (upload.size === 0) throw hookError(400, 'empty_file', 'The file is empty. Please select a video file.');
  const meta = parseUploadMetadata(upload.metadata);
  if (!meta.ok) throw hookError(400, meta.code, meta.message);
  try {
    return await insertUploadRow(deps, user.id, upload.id, upload.size, meta.value);
  } catch (e) {
    if (!(e instanceof UploadRefused)) throw e;
    if (e.refusal.retryAfter) onRetryAfter(e.refusal.retryAfter);
    throw hookError(e.refusal.status, e.refusal.code, e.refusal.message);
  }
}

/** Under the video id's lock: another member's upload or video holds it. */
async function refuseTakenVideoId(trx: Transaction<Database>, userId: string, videoId: string): Promise<void> {
  const owner = await trx.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirst();
  const otherUpload = await trx.selectFrom('uploads').select('user_id').where('video_id', '=', videoId).where('user_id', '!=', userId).executeTakeFirst();
  if ((owner && owner.user_id !== userId) || otherUpload) throw hookError(409, 'video_id_taken', 'This video id belongs to another upload.');
}

/**
 * The video id and the limits are checked in the transaction that takes the slot, under the video
 * id's lock and the member's (PostgreSQL; SQLite runs one transaction at a time): concurrent
 * creations queue, so two members cannot both take one video id, nor one member the last slot or
 * MiB twice. The upload id itself is ours and random; its primary key refuses a repeat.
 */
async function insertUploadRow(deps: AppDeps, userId: string, id: string, size: number, meta: UploadMetadata): Promise<string[]> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockVideoId(trx, meta.videoId);
    await refuseTakenVideoId(trx, userId, meta.videoId);
    await lockMember(trx, userId);
    const earlier = await replaceEarlierUploads(trx, userId, meta.videoId, now);
    const over = await quotaRefusal(trx, userId, size, now);
    if (over) throw new UploadRefused(over);
    await trx
      .insertInto('uploads')
      .values({
        id,
        user_id: userId,
        video_id: meta.videoId,
        title: meta.title,
        description: meta.description,
        filename: meta.filename,
        filetype: meta.filetype,
        size_bytes: size,
        status: 'uploading',
        reason: null,
        poster_key: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return earlier;
  });
}
