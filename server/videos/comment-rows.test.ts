import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite as openDatabase } from '#db/connect';
import { mentionStatements } from '../feed/mentions';
import { commentStatements } from './comment-rows';

// The comment lists on SQLite read their index in order and stop after the page: no temp B-tree and
// no scan, whatever the number of comments. SQLite plans from the schema alone here (the app keeps
// no sqlite_stat1), so an empty database shows the plan a large one gets. The PostgreSQL twins are
// checked on a seeded database by tests/postgres/plans-feed.test.ts.
describe('comment list query plans on SQLite', () => {
  const handle = openDatabase(':memory:');
  beforeAll(() => migrateToLatest(handle.db));
  afterAll(() => handle.close());

  const planOf = (source: string) =>
    (
      handle.engine.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${source}`)
        .all({ viewer: 'u1', video: 'v1', parent: 'c1', ids: '["c1"]', handles: '["asha"]', limit: 50, at: 1, id: 'c1' }) as Array<{ detail: string }>
    )
      .map((row) => row.detail)
      .join(' ; ');
  const statement = (name: keyof ReturnType<typeof commentStatements>) => commentStatements(handle.engine.sqlite)[name].source;

  const expectNoScanNorSort = (plan: string) => {
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).not.toMatch(/SCAN (c|v|p|rp|cl|comments|videos|profiles)\b/);
  };

  it.each(['topFirst', 'topNext'] as const)('%s walks comments_top without sorting', (name) => {
    const plan = planOf(statement(name));
    expect(plan).toMatch(/SEARCH c USING INDEX comments_top \(video_id=\?/);
    expectNoScanNorSort(plan);
  });

  it.each(['threadFirst', 'threadNext'] as const)('%s walks comments_thread without sorting', (name) => {
    const plan = planOf(statement(name));
    expect(plan).toMatch(/SEARCH c USING INDEX comments_thread \(parent_id=\?/);
    expectNoScanNorSort(plan);
  });

  it('finds the pinned comment by keys only: the video, then the comment it names', () => {
    const plan = planOf(statement('pinned'));
    expect(plan).toMatch(/SEARCH v USING (INDEX sqlite_autoindex_videos_1|PRIMARY KEY) \(id=\?\)/);
    expect(plan).toMatch(/SEARCH c USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    expectNoScanNorSort(plan);
  });

  it('reads comments by id and the mentioned members by handle through their indexes', () => {
    expect(planOf(statement('byIds'))).toMatch(/SEARCH c USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    const members = planOf(mentionStatements(handle.engine.sqlite).members.source);
    expect(members).toMatch(/SEARCH profiles USING COVERING INDEX profiles_handle \(handle=\?\)/);
    expect(members).not.toMatch(/SCAN profiles/);
  });
});
