import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { fileVideo } from '#server/discovery/video-hashtags';
import { insertVideo, type VideoOverrides } from './videos';

/**
 * A ready video written straight into the database and filed under the tags of its title and
 * description, in one transaction, as a video's first ready files it (server/media/jobs/run-job.ts).
 */
export async function insertTaggedVideo(deps: { db: Kysely<Database>; now?: () => number }, ownerId: string, overrides: VideoOverrides = {}): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    const id = await insertVideo({ db: trx, ...(deps.now ? { now: deps.now } : {}) }, ownerId, { media_status: 'ready', ...overrides });
    await fileVideo(trx, id, deps.now?.() ?? Date.now());
    return id;
  });
}

/** A tag no other test of the run uses (lower case, as filed). */
export const freshTag = (stem: string): string => `${stem}_${randomUUID().slice(0, 8)}`;

/** The tag's row as the page reads it: its count, and whether it is hidden (undefined: no row). */
export const hashtagRow = (db: Kysely<Database>, tag: string) =>
  db.selectFrom('hashtags').select(['videos_count', 'hidden']).where('tag', '=', tag).executeTakeFirst();
