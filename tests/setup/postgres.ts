import type { TestProject } from 'vitest/node';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '#tests/support/postgres-cluster';
import { migrateToLatest, openDatabase } from '#db/connect';
import { TEMPLATE_DATABASE } from '../helpers/test-database';

let cluster: PostgresCluster | undefined;

/**
 * The PostgreSQL half of the suite: one throwaway cluster for the run, and a migrated template
 * database each test copies (CREATE DATABASE … TEMPLATE, ~50 ms) so every test file starts from an
 * empty, migrated database of its own.
 */
export async function setup(project: TestProject): Promise<void> {
  cluster = await startPostgresCluster();
  await createDatabase(cluster.url(), TEMPLATE_DATABASE);
  const handle = openDatabase(cluster.url(TEMPLATE_DATABASE));
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  project.provide('pgAdminUrl', cluster.url());
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}
