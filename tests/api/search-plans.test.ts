import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, type RawBuilder } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { testDialect } from '../helpers/test-database';
import { planText, queryPlan } from '../helpers/query-plan';
import { videoSearchQuery } from '#server/discovery/search-videos';
import { exactHandleQuery, handlePrefixQuery, nameQuery } from '#server/discovery/search-people';
import { hashtagSearchQuery } from '#server/discovery/search-hashtags';

// Each search statement (server/discovery/search-*.ts) is served by its index on both engines,
// filtered for blocks and mutes or not: on SQLite, FTS5 (videos_fts, people_fts) with the rows
// then read by rowid, and ranges of profiles_handle and of the hashtags primary key, never a scan
// of videos or profiles; the one sort is of the bounded candidates. On PostgreSQL, whether the
// indexes can serve them (tests/helpers/query-plan.ts); what the planner picks at volume, for a
// rare and a common word: tests/postgres/plans-search.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** SQLite's EXPLAIN QUERY PLAN lines. */
async function sqlitePlan(query: RawBuilder<unknown>): Promise<string[]> {
  const { sql, parameters } = query.compile(t.deps.db);
  const { rows } = await t.deps.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${sql}`, [...parameters]));
  return rows.map((r) => r.detail);
}

/** Scans of a table's rows; a scan of a co-routine (a subquery's rows as they are produced) is not one. */
const scansOfRows = (lines: string[]) => {
  const coroutines = new Set(lines.filter((l) => l.startsWith('CO-ROUTINE ')).map((l) => l.slice('CO-ROUTINE '.length)));
  return lines.filter((l) => /^SCAN (v|p|n|w|videos|profiles|hashtags)\b/.test(l) && !coroutines.has(l.split(' ')[1]!));
};
const sortsIn = (lines: string[]) => lines.filter((l) => l.startsWith('USE TEMP B-TREE'));

/** SQLite reads `fts` (a full-text table), then each row of `alias` by rowid, and scans no table; returns the plan's lines. */
async function expectFullText(query: RawBuilder<unknown>, fts: string, alias: string): Promise<string[]> {
  const lines = await sqlitePlan(query);
  const text = lines.join(' | ');
  expect(
    lines.some((l) => l.startsWith(`SCAN ${fts} VIRTUAL TABLE`)),
    text,
  ).toBe(true);
  expect(lines, text).toContain(`SEARCH ${alias} USING INTEGER PRIMARY KEY (rowid=?)`);
  expect(scansOfRows(lines), text).toEqual([]);
  return lines;
}

describe.each([false, true])('search plans (filtered for blocks and mutes: %s)', (filtered) => {
  it.each([0, 1] as const)('videos, tier %i: the full-text index, then each candidate by key', async (tier) => {
    const query = videoSearchQuery(testDialect, 'viewer', ['sunset', 'be'], tier, { tier, at: 1_760_000_000_000, id: 'abc' }, 21, filtered)!;
    if (testDialect === 'sqlite') {
      const lines = await expectFullText(query, 'videos_fts', 'v');
      const text = lines.join(' | ');
      // The candidates come from FTS5 newest first without a sort; only the ranked page is sorted.
      expect(sortsIn(lines).length, text).toBe(1);
      return;
    }
    const plan = await queryPlan(t.deps.db, query.compile(t.deps.db));
    const text = planText(plan);
    expect(
      plan.some((s) => s.index === 'videos_search' || s.index === 'videos_feed'),
      text,
    ).toBe(true);
    expect(
      plan.filter((s) => s.kind === 'scan'),
      text,
    ).toEqual([]);
  });

  it('videos: a cursor in tier 1 leaves tier 0 unread', () => {
    expect(videoSearchQuery(testDialect, 'viewer', ['sunset'], 0, { tier: 1, at: 1, id: 'abc' }, 21, filtered)).toBeNull();
  });

  it('names: the full-text index or the index of their words, then each member by key', async () => {
    const query = nameQuery(testDialect, 'viewer', ['jose', 'ga'], 'jose', { tier: 2, followers: 3, handle: 'abc' }, 21, filtered);
    if (testDialect === 'sqlite') {
      await expectFullText(query, 'people_fts', 'p');
      return;
    }
    const plan = await queryPlan(t.deps.db, query.compile(t.deps.db));
    const text = planText(plan);
    // The index of their words, or (with sorts priced out on these few rows) the newest members walked by profiles_created_at.
    expect(
      plan.some((s) => s.index === 'profiles_name_words' || s.index === 'profiles_created_at'),
      text,
    ).toBe(true);
    expect(
      plan.filter((s) => s.index === 'profiles_followers'),
      text,
    ).toEqual([]);
    expect(
      plan.filter((s) => s.kind === 'scan'),
      text,
    ).toEqual([]);
  });

  it('handles and tags: a range of profiles_handle or of the hashtags primary key, in its order', async () => {
    const cases: Array<[RawBuilder<unknown>, RegExp]> = [
      [exactHandleQuery('viewer', 'jose', filtered), /^SEARCH p USING INDEX profiles_handle \(handle=\?\)|profiles_handle/],
      [handlePrefixQuery('viewer', 'jo', 'jose', 21, filtered), /^SEARCH p USING INDEX profiles_handle \(handle>\? AND handle<\?\)|profiles_handle/],
      [hashtagSearchQuery('sun', { tag: 'sunset' }), /^SEARCH hashtags USING INDEX sqlite_autoindex_hashtags_1 \(tag>\? AND tag<\?\)|hashtags_pkey/],
    ];
    for (const [query, index] of cases) {
      if (testDialect === 'sqlite') {
        const lines = await sqlitePlan(query);
        expect(
          lines.some((l) => index.test(l)),
          lines.join(' | '),
        ).toBe(true);
        expect([...scansOfRows(lines), ...sortsIn(lines)], lines.join(' | ')).toEqual([]);
      } else {
        const plan = await queryPlan(t.deps.db, query.compile(t.deps.db));
        expect(
          plan.some((s) => s.kind === 'search' && index.test(s.index ?? '')),
          planText(plan),
        ).toBe(true);
        expect(
          plan.filter((s) => s.kind === 'scan' || s.kind === 'sort'),
          planText(plan),
        ).toEqual([]);
      }
    }
  });
});
