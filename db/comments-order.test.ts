import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite as openDatabase } from './connect';
import { feedStatements } from '#server/videos/feed-rows';

// The comments pages of server/videos (newest first, id as tie-break) read the index in order:
// no temp B-tree, whatever the number of comments on the video.
describe('comments page query plan', () => {
  const handle = openDatabase(':memory:');
  beforeAll(() => migrateToLatest(handle.db));
  afterAll(() => handle.close());

  const planOf = (source: string) =>
    (handle.engine.sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all({ video: 'v1', limit: 50, at: 1, id: 'c1' }) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join(' ; ');

  it.each(['commentsFirst', 'commentsNext'] as const)('%s walks comments_video_time_id without sorting', (name) => {
    const plan = planOf(feedStatements(handle.engine.sqlite)[name].source);
    expect(plan).toMatch(/SEARCH c USING INDEX comments_video_time_id \(video_id=\?/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('keeps one index led by video_id on comments: the old (video_id, created_at) one is gone', () => {
    const names = (
      handle.engine.sqlite
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'comments' AND sql LIKE '%("video_id"%'`)
        .all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
    expect(names).toEqual(['comments_video_time_id']);
  });
});
