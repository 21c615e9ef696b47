import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '#db/connect';
import type { Database } from '#db/schema';
import { emptyDatabase } from '../helpers/empty-database';

// Migration 0021 (db/migrations/0021_hashtags_top.ts): the tag page's "top" order moves from an index
// over video_hashtags to the table video_hashtags_top. A database filed before it keeps every key,
// each at its video's likes_count, and the trigger moves them from then on; down restores the copy.

const like = (db: Kysely<Database>, id: string, likes: number) => sql`UPDATE videos SET likes_count = ${likes} WHERE id = ${id}`.execute(db);

const topKeys = async (db: Kysely<Database>) =>
  (await sql<{ k: string }>`SELECT tag || ' ' || likes_count || ' ' || created_at || ' ' || video_id AS k FROM video_hashtags_top`.execute(db)).rows
    .map((r) => r.k)
    .sort();

describe('migration 0021: the top order in a table of its own', () => {
  it('keeps every filed key at its video’s count, moves it with each like, and goes back down', async () => {
    const { db } = await emptyDatabase();
    await migrateTo(db, '0020_hashtags_admin');
    await sql`INSERT INTO profiles (id, email, name, is_admin, is_active, account_status, created_at, updated_at)
      VALUES ('u1', 'u1@example.test', 'Maker', 0, 1, 'active', 1, 1)`.execute(db);
    for (const [id, likes] of [
      ['v1', 3],
      ['v2', 0],
      ['v3', 7],
    ] as const) {
      await sql`INSERT INTO videos (id, user_id, title, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status, likes_count)
        VALUES (${id}, 'u1', ${id}, ${`k/${id}`}, 'video/mp4', 1, 1, ${'0'.repeat(64)}, ${Number(id.slice(1)) * 1000}, 'ready', ${likes})`.execute(db);
    }
    await sql`INSERT INTO hashtags (tag, videos_count, hidden, created_at) VALUES ('cats', 3, 0, 1), ('dogs', 1, 0, 1)`.execute(db);
    await sql`INSERT INTO video_hashtags (tag, video_id, created_at, likes_count)
      VALUES ('cats', 'v1', 1000, 3), ('cats', 'v2', 2000, 0), ('cats', 'v3', 3000, 7), ('dogs', 'v3', 3000, 7)`.execute(db);

    await migrateToLatest(db);
    expect(await topKeys(db)).toEqual(['cats 0 2000 v2', 'cats 3 1000 v1', 'cats 7 3000 v3', 'dogs 7 3000 v3']);
    await like(db, 'v3', 8);
    await like(db, 'v2', 1);
    await like(db, 'v2', 0);
    expect(await topKeys(db)).toEqual(['cats 0 2000 v2', 'cats 3 1000 v1', 'cats 8 3000 v3', 'dogs 8 3000 v3']);

    await migrateTo(db, '0020_hashtags_admin');
    await like(db, 'v1', 4);
    const { rows } = await sql<{ k: string }>`SELECT tag || ' ' || video_id || ' ' || likes_count AS k FROM video_hashtags ORDER BY tag, video_id`.execute(db);
    expect(rows.map((r) => r.k)).toEqual(['cats v1 4', 'cats v2 0', 'cats v3 8', 'dogs v3 8']);
  });
});
