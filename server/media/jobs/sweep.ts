import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { MediaStore } from '../../storage/media-store';
import { videoFolderKey } from './registry';

/** `.tmp-{jobId}-{attempt}`: a try's working folder (the leading dot keeps it from ever being served). */
export const tempFolderName = (jobId: string, attempt: number) => `.tmp-${jobId}-${attempt}`;
const TEMP_RE = /^\.tmp-(.+)-(\d+)$/;

interface JobLease {
  id: string;
  state: string;
  lease_until: number;
  attempts: number;
}

/** A try's scratch stays only while that very try runs under a live lease (an earlier attempt's never does). */
const isLiveTry = (job: JobLease | undefined, attempt: number, now: number): boolean =>
  !!job && job.state === 'running' && job.lease_until >= now && job.attempts === attempt;

/**
 * Removes what a crash (kill -9, power loss) can leave in one video's folder: temp folders of tries
 * that are not running under a live lease, output folders no row points at and no unfinished job
 * will claim (a crash between the publish and the commit, or before an old folder was removed), and
 * the whole folder when the video is gone (a crash between the deletion's commit and its clean-up).
 * A live try of another worker keeps its temp folder. Returns how many folders went.
 *
 * Temp folders are found here only on disk, where scratch lives inside the media folder; on S3 the
 * bucket never holds one (each worker's scratch is on its own machine: sweepLocalScratch).
 */
export async function sweepVideoFolder(db: Kysely<Database>, store: MediaStore, userId: string, videoId: string, now: number): Promise<number> {
  const key = videoFolderKey(userId, videoId);
  const names = await store.listFolders(key);
  if (!names.length) return 0;
  // Jobs before the video: a worker may publish and commit (job done, media_key set) between the two
  // reads, and read in this order its folder is kept either way (job still running, or media_key
  // already naming it); the other order could see neither and remove a folder just put in use.
  const jobs = await db.selectFrom('media_jobs').select(['id', 'state', 'lease_until', 'attempts']).where('video_id', '=', videoId).execute();
  const video = await db.selectFrom('videos').select(['media_key']).where('id', '=', videoId).executeTakeFirst();
  if (!video) {
    await store.deleteFolder(key);
    return names.length;
  }
  const byId = new Map(jobs.map((j) => [j.id, j]));
  let removed = 0;
  for (const name of names) {
    const temp = TEMP_RE.exec(name);
    let keep: boolean;
    if (temp) {
      keep = isLiveTry(byId.get(temp[1] ?? ''), Number(temp[2]), now);
    } else {
      const state = byId.get(name)?.state;
      keep = `${key}/${name}` === video.media_key || state === 'queued' || state === 'running';
    }
    if (keep) continue;
    if (temp) await store.discardScratch(`${key}/${name}`);
    else await store.deleteFolder(`${key}/${name}`);
    removed++;
  }
  return removed;
}

/** At start-up: sweeps every video folder of the store ({userId}/{videoId}/). */
export async function sweepAllVideoFolders(db: Kysely<Database>, store: MediaStore, now: number): Promise<number> {
  let removed = 0;
  for (const userId of await store.listFolders('')) {
    if (userId.startsWith('.')) continue;
    for (const videoId of await store.listFolders(userId)) {
      if (videoId.startsWith('.')) continue;
      removed += await sweepVideoFolder(db, store, userId, videoId, now);
    }
  }
  return removed;
}

/**
 * A store whose scratch folders live outside the media folder (S3: under this machine's
 * DATA_DIR/scratch) lists their keys here: the walk of the bucket above can never see them.
 */
interface LocalScratch {
  listScratch(): Promise<string[]>;
}
const hasLocalScratch = (s: MediaStore): s is MediaStore & LocalScratch => typeof (s as Partial<LocalScratch>).listScratch === 'function';

/**
 * At start-up on S3: removes this machine's scratch folders of tries that are not running under a
 * live lease, the same rule as the temp folders on disk. Not "all of it because this process runs
 * nothing yet": `npm start` and `npm run worker` may share one DATA_DIR, and the other one's live
 * try keeps its folder. Only a crash leaves one (every other end of a try discards its own), and a
 * killed process's orphaned ffmpeg stops once its folder goes. Returns how many folders went.
 */
export async function sweepLocalScratch(db: Kysely<Database>, store: MediaStore, now: number): Promise<number> {
  if (!hasLocalScratch(store)) return 0;
  const tries = (await store.listScratch()).flatMap((key) => {
    const m = TEMP_RE.exec(key.slice(key.lastIndexOf('/') + 1));
    return m ? [{ key, jobId: m[1] ?? '', attempt: Number(m[2]) }] : [];
  });
  if (!tries.length) return 0;
  const jobs = await db
    .selectFrom('media_jobs')
    .select(['id', 'state', 'lease_until', 'attempts'])
    .where(
      'id',
      'in',
      tries.map((t) => t.jobId),
    )
    .execute();
  const byId = new Map(jobs.map((j) => [j.id, j]));
  let removed = 0;
  for (const t of tries) {
    if (isLiveTry(byId.get(t.jobId), t.attempt, now)) continue;
    await store.discardScratch(t.key);
    removed++;
  }
  return removed;
}
