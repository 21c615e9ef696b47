import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Database, VideosTable } from '#db/schema';

/** Columns of the `videos` row to set instead of insertVideo's defaults. */
export type VideoOverrides = Partial<Insertable<VideosTable>>;

/**
 * Writes one `videos` row straight into the database (no change log, no poke; `deps.db` may be a
 * transaction), for tests that are not about uploading: a 5 s MP4 of `ownerId` with no counts,
 * created at `deps.now()` (or now), unless `overrides` say otherwise. Returns its id.
 */
export async function insertVideo(deps: { db: Kysely<Database>; now?: () => number }, ownerId: string, overrides: VideoOverrides = {}): Promise<string> {
  const id = overrides.id ?? randomUUID();
  const createdAt = overrides.created_at ?? deps.now?.() ?? Date.now();
  await deps.db
    .insertInto('videos')
    .values({
      id,
      user_id: ownerId,
      title: 'Clip',
      description: '',
      file_key: `${ownerId}/${createdAt}-${id.slice(0, 6)}.mp4`,
      mime_type: 'video/mp4',
      size_bytes: 12,
      duration_ms: 5000,
      sha256: 'x',
      poster_key: null,
      created_at: createdAt,
      media_error: null,
      media_key: null,
      captions_key: null,
      likes_count: 0,
      comments_count: 0,
      shares_count: 0,
      views_count: 0,
      ...overrides,
    })
    .execute();
  return id;
}
