import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '#db/connect';
import { SCORES_REBUILD_MARKER, rebuildScoresIfMarked } from './recompute';

// Migration 0007 changed the scoring rules; db/ cannot call the server's rebuild, so it leaves a
// marker that the server consumes once at start-up.
describe('the scores rebuild marker', () => {
  const handle = openDatabase(':memory:');
  beforeAll(() => migrateToLatest(handle.db));
  afterAll(() => handle.close());

  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(handle.db)).rows[0]?.n);
  const markers = () => count(sql`SELECT count(*) AS n FROM settings WHERE key = ${SCORES_REBUILD_MARKER}`);

  it('is left by the migration, rebuilds the counters once, and is gone after', async () => {
    expect(await markers()).toBe(1);
    await handle.db
      .insertInto('profiles')
      .values({
        id: 'u1',
        email: 'u1@x.test',
        name: 'U',
        handle: 'member_u1',
        is_admin: 0,
        is_active: 1,
        account_status: 'active',
        email_verified_at: 1,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    // A stale counter the rows do not support: the rebuild drops it.
    await handle.db.insertInto('scores').values({ user_id: 'u1', creator_points: 42, viewer_points: 7, creator_reached_at: 5, viewer_reached_at: 5 }).execute();
    expect(await rebuildScoresIfMarked(handle.db)).toBe(true);
    expect(await markers()).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM scores WHERE creator_points = 42`)).toBe(0);
    expect(await rebuildScoresIfMarked(handle.db)).toBe(false);
  });
});
