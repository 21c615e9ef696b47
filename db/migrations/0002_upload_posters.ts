import type { Kysely } from 'kysely';
import { textType } from './portable';

// Uploads issue: a poster may arrive before its video exists, so the upload row keeps its key
// until the finished upload becomes the video.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('uploads').addColumn('poster_key', text).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('poster_key').execute();
}
