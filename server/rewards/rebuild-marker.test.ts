import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite as openDatabase } from '#db/connect';
import { SCORES_REBUILD_MARKER, rebuildScoresIfMarked } from './recompute';

// Migration 0007 changed the scoring rules; db/ cannot call the server's rebuild, so it leaves a
// marker that the server consumes once at start-up.
describe('the scores rebuild marker', () => {
  const handle = openDatabase(':memory:');
  beforeAll(() => migrateToLatest(handle.db));
  afterAll(() => handle.close());

  const markers = () => handle.engine.sqlite.prepare('SELECT count(*) AS n FROM settings WHERE key = ?').get(SCORES_REBUILD_MARKER) as { n: number };

  it('is left by the migration, rebuilds the counters once, and is gone after', async () => {
    expect(markers().n).toBe(1);
    handle.engine.sqlite
      .prepare(
        "INSERT INTO profiles (id, email, name, is_admin, is_active, account_status, email_verified_at, created_at, updated_at) VALUES ('u1', 'u1@x.test', 'U', 0, 1, 'active', 1, 1, 1)",
      )
      .run();
    // A stale counter the rows do not support: the rebuild drops it.
    handle.engine.sqlite
      .prepare("INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at) VALUES ('u1', 42, 7, 5, 5)")
      .run();
    expect(await rebuildScoresIfMarked(handle.db)).toBe(true);
    expect(markers().n).toBe(0);
    expect(handle.engine.sqlite.prepare('SELECT count(*) AS n FROM scores WHERE creator_points = 42').get()).toEqual({ n: 0 });
    expect(await rebuildScoresIfMarked(handle.db)).toBe(false);
  });
});
