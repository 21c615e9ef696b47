import { readdir } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { mediaPath } from '../storage';
import { removeMediaFolder, videoFolderKey } from './registry';

/** `.tmp-{jobId}-{attempt}`: a try's working folder (the leading dot keeps it from ever being served). */
export const tempFolderName = (jobId: string, attempt: number) => `.tmp-${jobId}-${attempt}`;
const TEMP_RE = /^\.tmp-(.+)-(\d+)$/;

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

/**
 * Removes what a crash (kill -9, power loss) can leave in one video's folder: temp folders of tries
 * that are not running under a live lease, output folders no row points at and no unfinished job
 * will claim (a crash between the rename and the commit, or before an old folder was removed), and
 * the whole folder when the video is gone (a crash between the deletion's commit and its clean-up).
 * A live try of another worker keeps its temp folder. Returns how many folders went.
 */
export async function sweepVideoFolder(db: Kysely<Database>, mediaDir: string, userId: string, videoId: string, now: number): Promise<number> {
  const key = videoFolderKey(userId, videoId);
  const names = await subfolders(mediaPath(mediaDir, key));
  if (!names.length) return 0;
  const video = await db.selectFrom('videos').select(['media_key']).where('id', '=', videoId).executeTakeFirst();
  if (!video) {
    await removeMediaFolder(mediaDir, key);
    return names.length;
  }
  const jobs = await db.selectFrom('media_jobs').select(['id', 'state', 'lease_until', 'attempts']).where('video_id', '=', videoId).execute();
  const byId = new Map(jobs.map((j) => [j.id, j]));
  let removed = 0;
  for (const name of names) {
    const temp = TEMP_RE.exec(name);
    let keep: boolean;
    if (temp) {
      const job = byId.get(temp[1] ?? '');
      keep = !!job && job.state === 'running' && job.lease_until >= now && job.attempts === Number(temp[2]);
    } else {
      const state = byId.get(name)?.state;
      keep = `${key}/${name}` === video.media_key || state === 'queued' || state === 'running';
    }
    if (keep) continue;
    await removeMediaFolder(mediaDir, `${key}/${name}`);
    removed++;
  }
  return removed;
}

/** At start-up: sweeps every video folder under the media folder ({userId}/{videoId}/). */
export async function sweepAllVideoFolders(db: Kysely<Database>, mediaDir: string, now: number): Promise<number> {
  let removed = 0;
  for (const userId of await subfolders(mediaDir)) {
    for (const videoId of await subfolders(mediaPath(mediaDir, userId))) {
      if (videoId.startsWith('.')) continue;
      removed += await sweepVideoFolder(db, mediaDir, userId, videoId, now);
    }
  }
  return removed;
}
