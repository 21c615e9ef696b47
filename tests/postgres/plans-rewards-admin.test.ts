import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { BEST_USERS, BEST_VIEWERS, rankOnBoard, topOfBoard } from '#server/rewards/leaderboards';
import { usersPageQuery } from '#server/admin/users';
import { recordQueries } from '../helpers/query-plan';
import { testDatabaseEnv, VOLUME_SEEDING_POSTGRES } from '../helpers/test-database';

// The leaderboards and the admin user search on PostgreSQL, on a seeded and analysed database:
// the boards read the top of scores_creator / scores_viewer and stop (no sort, no scan of scores),
// the own rank counts on those indexes, and a search reads the trigram indexes of migration 0009
// (or walks profiles_created_at when most rows match), never every profile. Plans are read as run
// with the values at hand (custom) and as a prepared statement keeps them for any values (generic),
// since db/postgres.ts prepares every statement.

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
const describePlan = (nodes: PlanNode[]) => nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')).join(' | ');

const MEMBERS = 30_000;
const SCORED = 20_000;

describe('leaderboard and admin search plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-rewards-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!, VOLUME_SEEDING_POSTGRES);
    const { db } = handle;
    // Every 1000th member is suspended; a few have a rare name to search for.
    await sql`INSERT INTO profiles (id, email, name, handle, is_active, created_at, updated_at)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test', CASE WHEN i % 5000 = 0 THEN 'Xyzzy ' || i ELSE 'Member ' || i END, 'member' || i,
        CASE WHEN i % 1000 = 0 THEN 0 ELSE 1 END, 1700000000000 + i, 1700000000000 + i
      FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // Points spread like a real board: most members have a few, a long tail many; many viewers have none as creators.
    await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at)
      SELECT 'u' || lpad(i::text, 8, '0'), CASE WHEN i % 3 = 0 THEN 0 ELSE (i * 7919) % 97 END, (i * 104729) % 53,
        1700000000000 + (i * 31) % 100000, 1700000000000 + (i * 17) % 100000
      FROM generate_series(1, ${SCORED}) i`.execute(db);
    // Vacuumed as autovacuum keeps a live table: the trigram indexes' pending entries merged, and the
    // visibility map set for index-only counts.
    await sql`VACUUM ANALYZE`.execute(db);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function customPlan(q: { sql: string; parameters: readonly unknown[] }): Promise<PlanNode[]> {
    const { rows } = await handle.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]),
    );
    return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
  }

  async function genericPlan(q: { sql: string; parameters: readonly unknown[] }): Promise<PlanNode[]> {
    return handle.db.connection().execute(async (conn) => {
      await sql`SET plan_cache_mode = force_generic_plan`.execute(conn);
      await sql.raw(`PREPARE plan_probe AS ${q.sql}`).execute(conn);
      try {
        // EXECUTE takes its arguments as literals, not as bound parameters.
        const args = q.parameters.map((p) => (typeof p === 'number' ? String(p) : `'${String(p).replace(/'/g, "''")}'`)).join(', ');
        const { rows } = await conn.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe${args ? `(${args})` : ''}`),
        );
        return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
      } finally {
        await sql`DEALLOCATE plan_probe`.execute(conn);
        await sql`RESET plan_cache_mode`.execute(conn);
      }
    });
  }

  const plans = async (q: { sql: string; parameters: readonly unknown[] }) => [await customPlan(q), await genericPlan(q)];
  const scansOf = (nodes: PlanNode[], table: string) => nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table);

  it.each([
    ['creator', 'scores_creator', BEST_USERS],
    ['viewer', 'scores_viewer', BEST_VIEWERS],
  ] as const)('the %s board reads the top of %s and stops', async (board, index, limit) => {
    const { plugin, queries } = recordQueries(handle.db);
    const top = await topOfBoard(handle.db.withPlugin(plugin), board, limit);
    expect(top).toHaveLength(limit);
    for (const nodes of await plans(queries[0]!)) {
      const text = describePlan(nodes);
      expect(
        nodes.some((n) => /^Index (Only )?Scan$/.test(n['Node Type']) && n['Index Name'] === index),
        text,
      ).toBe(true);
      expect(
        nodes.filter((n) => /Sort/.test(n['Node Type'])),
        text,
      ).toEqual([]);
      expect([...scansOf(nodes, 'scores'), ...scansOf(nodes, 'profiles')], text).toEqual([]);
    }
  });

  it("the own rank of a member near the top counts on the board's index, never a scan of scores", async () => {
    const { plugin, queries } = recordQueries(handle.db);
    const db = handle.db.withPlugin(plugin);
    for (const board of ['creator', 'viewer'] as const) {
      // Rank 50: the members ahead are a small range of the index. (Deep in the board the count
      // covers most rows, and PostgreSQL rightly reads the narrow table instead: the same work.)
      const { rows } = await sql<{ id: string }>`SELECT user_id AS id FROM scores
        ORDER BY ${sql.ref(`${board}_points`)} DESC, ${sql.ref(`${board}_reached_at`)}, user_id LIMIT 1 OFFSET 49`.execute(handle.db);
      queries.length = 0;
      expect((await rankOnBoard(db, board, rows[0]!.id))?.rank).toBe(50);
      const count = queries.find((q) => /count\(\*\)/.test(q.sql))!;
      const nodes = await customPlan(count);
      const text = describePlan(nodes);
      expect(scansOf(nodes, 'scores'), text).toEqual([]);
      expect(
        nodes.some((n) => n['Index Name'] === `scores_${board}`),
        text,
      ).toBe(true);
    }
  });

  it('an admin search reads the trigram indexes; a search most rows match walks profiles_created_at; neither reads every profile', async () => {
    const rare = usersPageQuery(handle.db, { limit: 20, cursor: null, search: 'xyzzy' }).compile();
    const rows = await handle.db.executeQuery<{ name: string }>(CompiledQuery.raw(rare.sql, [...rare.parameters]));
    expect(rows.rows.map((r) => r.name).sort()).toEqual(['Xyzzy 10000', 'Xyzzy 15000', 'Xyzzy 20000', 'Xyzzy 25000', 'Xyzzy 30000', 'Xyzzy 5000']);
    const [custom, generic] = await plans(rare);
    expect(
      custom!.some((n) => /_trgm$/.test(n['Index Name'] ?? '')),
      describePlan(custom!),
    ).toBe(true);
    expect(scansOf(custom!, 'profiles'), describePlan(custom!)).toEqual([]);
    expect(scansOf(generic!, 'profiles'), describePlan(generic!)).toEqual([]);

    const common = usersPageQuery(handle.db, { limit: 20, cursor: null, search: 'example' }).compile();
    for (const nodes of await plans(common)) {
      expect(scansOf(nodes, 'profiles'), describePlan(nodes)).toEqual([]);
      expect(
        nodes.some((n) => n['Index Name'] === 'profiles_created_at' || /_trgm$/.test(n['Index Name'] ?? '')),
        describePlan(nodes),
      ).toBe(true);
    }
  });
});
