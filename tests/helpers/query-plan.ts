import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type RootOperationNode, type QueryId } from 'kysely';
import type { Database } from '#db/schema';
import { testDialect } from './test-database';

/** One step of a query plan, the same words on both engines. */
export interface PlanStep {
  /** scan: every row of a table; walk: an index read from one end (ORDER BY … LIMIT); search: an index range or lookup; sort: a sort of the rows. */
  kind: 'scan' | 'walk' | 'search' | 'sort';
  /** The table as the query names it (its alias when it has one). */
  table?: string;
  index?: string;
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
}

function pgSteps(node: PgNode, out: PlanStep[]): PlanStep[] {
  const type = node['Node Type'];
  const table = node.Alias ?? node['Relation Name'];
  if (type === 'Seq Scan') out.push({ kind: 'scan', ...(table ? { table } : {}) });
  else if (type === 'Index Scan' || type === 'Index Only Scan')
    out.push({ kind: node['Index Cond'] ? 'search' : 'walk', ...(table ? { table } : {}), index: node['Index Name']! });
  else if (type === 'Bitmap Index Scan') out.push({ kind: 'search', index: node['Index Name']! });
  else if (type === 'Sort' || type === 'Incremental Sort') out.push({ kind: 'sort' });
  for (const child of node.Plans ?? []) pgSteps(child, out);
  return out;
}

function sqliteStep(detail: string): PlanStep | null {
  if (/^USE TEMP B-TREE FOR/.test(detail)) return { kind: 'sort' };
  const m = /^(SCAN|SEARCH) (\S+)(?: USING (?:COVERING |PRIMARY KEY |INTEGER PRIMARY KEY)?(?:INDEX (\S+))?)?/.exec(detail);
  if (!m || m[2] === 'CONSTANT') return null;
  const [, verb, table, index] = m;
  if (verb === 'SEARCH') return { kind: 'search', table: table!, ...(index ? { index } : {}) };
  return index ? { kind: 'walk', table: table!, index } : { kind: 'scan', table: table! };
}

/**
 * How the engine of this run would execute `q`. On PostgreSQL the test databases are tiny, where a
 * sequential scan and a sort are the cheapest plan for anything; so this asks whether the query CAN
 * be served by its indexes (scans, sorts, hash and merge joins and materialized inner sides priced out for the one EXPLAIN), and
 * a scan or a sort left in the plan means no index serves it. What the planner chooses on real volumes is checked by
 * tests/postgres/plans-rewards-admin.test.ts.
 */
export async function queryPlan(db: Kysely<Database>, q: { sql: string; parameters: readonly unknown[] }): Promise<PlanStep[]> {
  if (testDialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
    return rows.map((r) => sqliteStep(r.detail)).filter((s): s is PlanStep => s !== null);
  }
  return db.transaction().execute(async (trx) => {
    // Joins as per-row index lookups too (on a few rows a merge join walking a whole index is cheapest).
    for (const setting of ['enable_seqscan', 'enable_sort', 'enable_hashjoin', 'enable_mergejoin', 'enable_material'])
      await sql`SELECT set_config(${setting}, 'off', true)`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]));
    return pgSteps(rows[0]!['QUERY PLAN'][0]!.Plan, []);
  });
}

/** A plugin that records the SQL of every query run through `db.withPlugin(…)`, compiled as the engine runs it. */
export function recordQueries(db: Kysely<Database>): { plugin: KyselyPlugin; queries: Array<{ sql: string; parameters: readonly unknown[] }> } {
  const queries: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: { node: RootOperationNode; queryId: QueryId }) {
      const { sql: text, parameters } = db.getExecutor().compileQuery(node, queryId);
      queries.push({ sql: text, parameters });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, queries };
}

/** The plan as text, for failure messages. */
export const planText = (steps: PlanStep[]) => steps.map((s) => [s.kind, s.table, s.index].filter(Boolean).join(' ')).join(' | ');
