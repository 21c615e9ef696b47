import { createDatabase, startPostgresCluster, type PostgresCluster } from '#tests/support/postgres-cluster';
import { migrateToLatest, openDatabase } from '#db/connect';

/**
 * `npm run bench -- --db postgres`: a local cluster with PostgreSQL's durable defaults (fsync on,
 * synchronous_commit on; what a deployment runs, and the fair match for SQLite's synchronous =
 * FULL), and one migrated database `vidi` in it.
 */
export interface BenchPostgres {
  cluster: PostgresCluster;
  /** DATABASE_URL of the benchmark database. */
  url: string;
  stop(): Promise<void>;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    await createDatabase(cluster.url(), 'vidi');
    const url = cluster.url('vidi');
    const handle = openDatabase(url);
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    return { cluster, url, stop: () => cluster.stop() };
  } catch (e) {
    await cluster.stop();
    throw e;
  }
}

/**
 * The member the benchmarks act as on PostgreSQL: the member of the first like in key order (the
 * seed writes likes in key order, so this is the like SQLite's `ORDER BY rowid` finds), else any
 * active member.
 */
export async function postgresViewer(url: string): Promise<string> {
  const { db, close } = openDatabase(url);
  try {
    const like = await db.selectFrom('likes').select('user_id').orderBy('video_id').orderBy('user_id').limit(1).executeTakeFirst();
    const anyone = await db.selectFrom('profiles').select('id').where('is_active', '=', 1).limit(1).executeTakeFirst();
    const viewerId = like?.user_id ?? anyone?.id;
    if (!viewerId) throw new Error('the seeded database has no member');
    return viewerId;
  } finally {
    await close();
  }
}
