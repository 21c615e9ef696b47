import { statfs } from 'node:fs/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps } from '../context';
import { limitsSetting } from '../settings/definitions';
import { readSetting } from '../settings/store';
import { countPendingJobs } from '../media/jobs/queue';

/** Uploads of one member that may be unfinished at once (created, neither finished, cancelled nor expired). */
export const MAX_UPLOADS_IN_PROGRESS = 3;
/** Videos of one member that may wait for or be in processing at once (queued or running jobs). */
export const MAX_PENDING_VIDEOS = 3;
/** The daily volume is counted over this rolling window, and unfinished uploads expire after it. */
export const UPLOAD_WINDOW_MS = 24 * 60 * 60 * 1000;

const MIB = 1024 * 1024;

export interface UploadRefusal {
  status: 429 | 507;
  code: 'too_many_uploads' | 'upload_quota_exceeded' | 'insufficient_storage';
  message: string;
  /** Seconds after which the same upload would be accepted, when that is known. */
  retryAfter?: number;
}

/**
 * The free-space floor: a new upload that would leave less than UPLOAD_MIN_FREE_MIB free under
 * DATA_DIR is refused. Checked at creation only, so uploads already running can finish (they are
 * bounded: at most 3 per member of at most 120 MiB).
 */
export async function storageRefusal(deps: AppDeps, uploadLength: number): Promise<UploadRefusal | null> {
  const floor = deps.config.uploadMinFreeBytes;
  if (floor === 0) return null;
  const fs = await statfs(deps.config.dataDir);
  if (fs.bavail * fs.bsize - uploadLength >= floor) return null;
  return {
    status: 507,
    code: 'insufficient_storage',
    message: 'The server is running out of storage space and cannot take new uploads right now. Please try again later.',
    retryAfter: 600,
  };
}

/**
 * A new creation for a video the member is already uploading replaces the unfinished upload(s) of
 * it: the app uploads a video through one upload at a time, so an earlier one is one whose creation
 * answer was lost (a cut connection; tus-js-client then creates again) or that the app gave up on.
 * Without this, each lost answer would hold a slot for 24 hours, and three would lock an honest
 * member on a bad network out of uploading. Their declared lengths still count toward the volume.
 * Returns the replaced upload ids.
 */
export async function replaceEarlierUploads(trx: Transaction<Database>, userId: string, videoId: string, now: number): Promise<string[]> {
  const earlier = await trx
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .where('video_id', '=', videoId)
    .where('status', '=', 'uploading')
    .execute();
  if (!earlier.length) return [];
  const ids = earlier.map((u) => u.id);
  await trx
    .updateTable('uploads')
    .set({ status: 'cancelled', reason: 'Replaced by a newer upload of the same video.', updated_at: now })
    .where('id', 'in', ids)
    .execute();
  return ids;
}

/**
 * A finished upload of a new video is refused while the member already has MAX_PENDING_VIDEOS
 * videos waiting for or in processing: one member cannot fill the queue that everyone's videos go
 * through (docs/reliability.md, "The media job runner"). A repeated finish of a video that already
 * has its row is never refused (it adds no job). Read in the transaction that inserts the video and
 * its job, under the member's lock on PostgreSQL, so two finishes cannot both take the last place.
 */
export async function processingRefusal(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  videoId: string,
): Promise<{ code: 'too_many_processing'; message: string } | null> {
  if (await db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst()) return null;
  if ((await countPendingJobs(db, userId)) < MAX_PENDING_VIDEOS) return null;
  return {
    code: 'too_many_processing',
    message: `You have ${MAX_PENDING_VIDEOS} videos being processed. Wait for one to finish before uploading another.`,
  };
}

/** Thrown inside the creating transaction so a refused creation changes nothing. */
export class UploadRefused extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(refusal.message);
  }
}

/**
 * The member's limits, read in the transaction that inserts the upload row, so concurrent
 * creations cannot both take the last slot or the last MiB (SQLite runs one transaction at a time;
 * on PostgreSQL the caller holds the member's lock). An upload counts toward the volume with its declared length, whatever
 * became of it, for 24 hours after its creation: bytes sent to a cancelled upload were received too.
 */
export async function quotaRefusal(trx: Transaction<Database>, userId: string, uploadLength: number, now: number): Promise<UploadRefusal | null> {
  const since = now - UPLOAD_WINDOW_MS;
  const recent = await trx
    .selectFrom('uploads')
    .select(['status', 'size_bytes', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  const inProgress = recent.filter((u) => u.status === 'uploading').length;
  if (inProgress >= MAX_UPLOADS_IN_PROGRESS) {
    return {
      status: 429,
      code: 'too_many_uploads',
      message: `You already have ${MAX_UPLOADS_IN_PROGRESS} uploads in progress. Please wait for one to finish (or cancel one) before starting another.`,
    };
  }
  const dailyBytes = (await readSetting(trx, limitsSetting)).upload_daily_mib * MIB;
  let used = recent.reduce((n, u) => n + Number(u.size_bytes ?? 0), 0);
  if (used + uploadLength <= dailyBytes) return null;
  // When enough of the window's uploads will have left it for this one to fit.
  let retryAfter: number | undefined;
  for (const u of recent) {
    used -= Number(u.size_bytes ?? 0);
    if (used + uploadLength <= dailyBytes) {
      retryAfter = Math.max(1, Math.ceil((u.created_at + UPLOAD_WINDOW_MS - now) / 1000));
      break;
    }
  }
  const limit = dailyBytes / MIB;
  return {
    status: 429,
    code: 'upload_quota_exceeded',
    message:
      uploadLength > dailyBytes
        ? `This file is larger than the daily upload limit of ${limit} MiB.`
        : `You have reached the daily upload limit of ${limit} MiB. Please try again in ${retryAfter !== undefined ? hoursFrom(retryAfter) : 'a few hours'}.`,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

function hoursFrom(seconds: number): string {
  const hours = Math.ceil(seconds / 3600);
  return hours <= 1 ? 'an hour' : `${hours} hours`;
}
