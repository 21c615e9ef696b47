import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';

// PostgreSQL's plans of a statement, as the EXPLAIN twins read them (plans-feed.test.ts,
// plans-people.test.ts): as planned for the values at hand, and as a prepared statement keeps them
// for any values, since db/postgres.ts prepares every statement and PostgreSQL may switch to that
// generic plan.

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  /** With `analyze` only: the rows the step produced (per loop). */
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

/** Every step of a plan, depth first. */
export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The plan as run with these values; `analyze` runs it and counts each step's rows. */
export async function customPlan(db: Kysely<Database>, query: RawBuilder<unknown>, analyze = false): Promise<PlanNode[]> {
  const { sql: text, parameters } = query.compile(db);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    CompiledQuery.raw(`EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${text}`, [...parameters]),
  );
  return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
}

/** The plan a prepared statement keeps for any values. */
export async function genericPlan(db: Kysely<Database>, query: RawBuilder<unknown>): Promise<PlanNode[]> {
  const { sql: text, parameters } = query.compile(db);
  return db.connection().execute(async (conn) => {
    await sql`SET plan_cache_mode = force_generic_plan`.execute(conn);
    await sql.raw(`PREPARE plan_probe AS ${text}`).execute(conn);
    try {
      // EXECUTE takes its arguments as literals, not as bound parameters.
      const literal = (p: unknown) => `'${(Array.isArray(p) ? `{${p.join(',')}}` : String(p)).replace(/'/g, "''")}'`;
      const args = parameters.map((p) => (typeof p === 'number' ? String(p) : literal(p))).join(', ');
      const { rows } = await conn.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe(${args})`),
      );
      return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
    } finally {
      await sql`DEALLOCATE plan_probe`.execute(conn);
      await sql`RESET plan_cache_mode`.execute(conn);
    }
  });
}

/**
 * Blocks and mutes for the filtered statements' plans (server/feed/safety.ts): each of the members
 * `u00000001`… blocks five others and mutes three, so their probes have real indexes to choose
 * against a scan.
 */
export async function seedSafety(db: Kysely<Database>, members: number): Promise<void> {
  await sql`INSERT INTO blocks (blocker_id, blocked_id, created_at)
    SELECT 'u' || lpad(i::text, 8, '0'), 'u' || lpad(((i * 7 + k * 13) % ${members} + 1)::text, 8, '0'), i
    FROM generate_series(1, ${members}) i, generate_series(1, 5) k ON CONFLICT DO NOTHING`.execute(db);
  await sql`INSERT INTO mutes (muter_id, muted_id, created_at)
    SELECT 'u' || lpad(i::text, 8, '0'), 'u' || lpad(((i * 11 + k * 17) % ${members} + 1)::text, 8, '0'), i
    FROM generate_series(1, ${members}) i, generate_series(1, 3) k ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * Runs `load` (an INSERT of volume into `table`) the way a bulk load is done: on one connection with
 * triggers off (`session_replication_role = replica`: the foreign keys' checks, since the seeds are
 * consistent by construction; no trigger of the migrations fires on an insert on PostgreSQL) and
 * the table's indexes other than its constraints' dropped first, then built again from their own
 * definitions (`pg_indexes.indexdef`), so the plans are read against exactly the migrated indexes.
 * Indexes built once cost about half the CPU of a million rows added one by one: plans-feed's million
 * videos took 32 s, 15 s so.
 */
export async function bulkLoad(db: Kysely<Database>, table: string, load: (conn: Kysely<Database>) => Promise<unknown>): Promise<void> {
  await db.connection().execute(async (conn) => {
    const { rows: indexes } = await sql<{ name: string; definition: string }>`
      SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ${table}
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`.execute(
      conn,
    );
    await sql`SET session_replication_role = replica`.execute(conn);
    try {
      for (const index of indexes) await sql`DROP INDEX ${sql.id(index.name)}`.execute(conn);
      await load(conn);
      for (const index of indexes) await sql.raw(index.definition).execute(conn);
    } finally {
      await sql`RESET session_replication_role`.execute(conn);
    }
  });
}
