import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite as openDatabase } from '#db/connect';
import { mentionStatements } from '../feed/mentions';
import { safetyStatements } from '../feed/safety';
import { commentStatements } from './comment-rows';
import { feedStatements } from './feed-rows';

// The comment lists and the feed on SQLite read their index in order and stop after the page: no
// temp B-tree and no scan, whatever the number of rows, both as most members read them (`plain`)
// and as a member with blocks or mutes does (`filtered`: key probes of blocks and mutes per row).
// SQLite plans from the schema alone here (the app keeps no sqlite_stat1), so an empty database
// shows the plan a large one gets. The PostgreSQL twins are checked on a seeded database by
// tests/postgres/plans-feed.test.ts.
describe('comment list and feed query plans on SQLite', () => {
  const handle = openDatabase(':memory:');
  beforeAll(() => migrateToLatest(handle.db));
  afterAll(() => handle.close());

  const planOf = (source: string) =>
    (
      handle.engine.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${source}`)
        .all({ viewer: 'u1', video: 'v1', parent: 'c1', ids: '["c1"]', handles: '["asha"]', limit: 50, at: 1, id: 'c1', public_base: null }) as Array<{
        detail: string;
      }>
    )
      .map((row) => row.detail)
      .join(' ; ');
  const sets = ['plain', 'filtered'] as const;
  type Set = (typeof sets)[number];
  const statement = (set: Set, name: keyof ReturnType<typeof commentStatements>['plain']) => commentStatements(handle.engine.sqlite)[set][name].source;

  const expectNoScanNorSort = (plan: string) => {
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).not.toMatch(/SCAN (c|v|p|rp|cl|l|pc|sb|sm|comments|videos|profiles|blocks|mutes)\b/);
  };
  // The filtered statements find a block each way by both its keys (a key probe of one of its indexes).
  const expectBlockProbes = (plan: string) => {
    const probes = plan.match(
      /SEARCH sb USING COVERING INDEX (sqlite_autoindex_blocks_1|blocks_blocked) \((blocker|blocked)_id=\? AND (blocker|blocked)_id=\?\)/g,
    );
    expect(probes?.length, plan).toBeGreaterThanOrEqual(2);
  };

  it.each(sets)('%s: topFirst and topNext walk comments_top without sorting', (set) => {
    for (const name of ['topFirst', 'topNext'] as const) {
      const plan = planOf(statement(set, name));
      expect(plan).toMatch(/SEARCH c USING INDEX comments_top \(video_id=\?/);
      expectNoScanNorSort(plan);
      if (set === 'filtered') expectBlockProbes(plan);
      else expect(plan).not.toMatch(/blocks/);
    }
  });

  it.each(sets)('%s: threadFirst and threadNext walk comments_thread without sorting', (set) => {
    for (const name of ['threadFirst', 'threadNext'] as const) {
      const plan = planOf(statement(set, name));
      expect(plan).toMatch(/SEARCH c USING INDEX comments_thread \(parent_id=\?/);
      expectNoScanNorSort(plan);
      if (set === 'filtered') expectBlockProbes(plan);
    }
  });

  it.each(sets)('%s: finds the pinned comment by keys only: the video, then the comment it names', (set) => {
    const plan = planOf(statement(set, 'pinned'));
    expect(plan).toMatch(/SEARCH v USING (INDEX sqlite_autoindex_videos_1|PRIMARY KEY) \(id=\?\)/);
    expect(plan).toMatch(/SEARCH c USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    expectNoScanNorSort(plan);
  });

  it.each(sets)('%s: reads comments by id, their parents and the viewer’s own replies through their indexes', (set) => {
    const byIds = planOf(statement(set, 'byIds'));
    expect(byIds).toMatch(/SEARCH c USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    expectNoScanNorSort(byIds);
    const own = planOf(statement(set, 'ownReplies'));
    expect(own).toMatch(/SEARCH c USING INDEX comments_user_video \(user_id=\? AND video_id=\?\)/);
    expectNoScanNorSort(own);
    if (set === 'filtered') {
      expectBlockProbes(byIds);
      expect(byIds).toMatch(/SEARCH pc USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
      expect(own).toMatch(/SEARCH pc USING INDEX sqlite_autoindex_comments_1 \(id=\?\)/);
    }
  });

  it('reads the mentioned members by handle through their index', () => {
    const members = planOf(mentionStatements(handle.engine.sqlite).members.source);
    expect(members).toMatch(/SEARCH profiles USING COVERING INDEX profiles_handle \(handle=\?\)/);
    expect(members).not.toMatch(/SCAN profiles/);
  });

  it.each(sets)('%s: the feed walks videos_feed backwards without sorting', (set) => {
    const s = feedStatements(handle.engine.sqlite)[set];
    const pages = s.pages(21);
    for (const page of [pages.firstPage, pages.nextPage, pages.firstPageJson, pages.nextPageJson]) {
      // No parameter whose value the plan could look at (a LIMIT's, a column compared with the bare
      // viewer): SQLite would prepare the statement again at each call (feed-rows.ts, VIEWER). The
      // filtered twin's block and mute probes (server/feed/safety.ts) still name the viewer bare.
      expect(page.source).not.toMatch(set === 'plain' ? /LIMIT @|[=<>] @viewer/ : /LIMIT @/);
      const plan = planOf(page.source);
      expect(plan).toMatch(/SEARCH l USING (COVERING )?INDEX sqlite_autoindex_likes_1 \(video_id=\? AND user_id=\?\)/);
      // The first page walks the whole index in order (and stops after the page), the next ones a range of it.
      expect(plan).toMatch(/(SCAN|SEARCH) v USING INDEX videos_feed\b/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
      expect(plan).not.toMatch(/SCAN (p|l|sb|sm|blocks|mutes)\b/);
      if (set === 'filtered') {
        expectBlockProbes(plan);
        expect(plan).toMatch(/SEARCH sm USING (COVERING )?INDEX sqlite_autoindex_mutes_1 \(muter_id=\? AND muted_id=\?\)/);
      } else expect(plan).not.toMatch(/blocks|mutes/);
    }
    const byIds = planOf(s.byIds.source);
    expect(byIds).toMatch(/SEARCH v USING INDEX sqlite_autoindex_videos_1 \(id=\?\)/);
    expect(byIds).not.toMatch(/SCAN (v|p|l|sb|sm)\b/);
  });

  it('probes a viewer’s blocks both ways and mutes by three index ranges', () => {
    const plan = planOf(safetyStatements(handle.engine.sqlite).probe.source);
    expect(plan).toMatch(/SEARCH blocks USING COVERING INDEX sqlite_autoindex_blocks_1 \(blocker_id=\?\)/);
    expect(plan).toMatch(/SEARCH blocks USING COVERING INDEX blocks_blocked \(blocked_id=\?\)/);
    expect(plan).toMatch(/SEARCH mutes USING COVERING INDEX sqlite_autoindex_mutes_1 \(muter_id=\?\)/);
    expect(plan.replace('SCAN CONSTANT ROW', '')).not.toMatch(/SCAN/);
  });
});
