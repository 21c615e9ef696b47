import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import pg from 'pg';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { testDatabaseEnv } from '../helpers/test-database';
import { listen } from '../integration/sync-harness';
import type { TestUser } from '../helpers/users';
import type { SharedPokes } from '#server/changes/pokes-postgres';
import { readSseEvents } from '../helpers/sse';

/** One instance of the app, in this process, served over real HTTP on loopback. */
export interface Instance extends TestApp {
  url: string;
  pokes: SharedPokes;
}

/**
 * Two instances on one PostgreSQL database, as two processes behind a load balancer would be:
 * each has its own pool, pokes, limits and caches; they share only the database.
 */
export async function twoInstances(extraEnv: Record<string, string> = {}): Promise<{ a: Instance; b: Instance; databaseUrl: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vidi-cluster-'));
  const env = { ...(await testDatabaseEnv(dir)), ...extraEnv };
  const databaseUrl = env.DATABASE_URL!;
  const start = async (): Promise<Instance & { stop(): Promise<void> }> => {
    const t = await createTestApp(env);
    const pokes = t.deps.pokes as SharedPokes;
    await pokes.ready;
    const http = await listen(t.app.fetch);
    return {
      ...t,
      url: http.url,
      pokes,
      stop: async () => {
        await http.close();
        await t.close();
      },
    };
  };
  const a = await start();
  const b = await start();
  return {
    a,
    b,
    databaseUrl,
    close: async () => {
      await a.stop();
      await b.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OpenStream {
  events: Array<{ event: string; data: string }>;
  ended: Promise<'ended'>;
  /** The next event named `name` after the last one returned (waiting for it). */
  nextEvent(name: string, timeoutMs?: number): Promise<{ event: string; data: string }>;
  close(): void;
}

/** GET /api/sync/events over real HTTP, read in the background (as tests/integration/live-streams.test.ts does). */
export async function openStream(baseUrl: string, user: TestUser): Promise<OpenStream> {
  const ctl = new AbortController();
  const res = await fetch(`${baseUrl}/api/sync/events`, { headers: { authorization: `Bearer ${user.token}` }, signal: ctl.signal });
  expect(res.status).toBe(200);
  const events: OpenStream['events'] = [];
  let wake = () => {};
  let seen = 0;
  const ended = readSseEvents(
    res.body!,
    (e) => events.push(e),
    () => wake(),
  );
  const nextEvent = async (name: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = events.findIndex((e, n) => n >= seen && e.event === name);
      if (i >= 0) {
        seen = i + 1;
        return events[i]!;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${name} event within ${timeoutMs} ms`);
      const more = new Promise<'more'>((ok) => (wake = () => ok('more')));
      const timeout = new Promise<'timeout'>((ok) => setTimeout(() => ok('timeout'), left));
      if ((await Promise.race([more, ended, timeout])) === 'ended' && !events.slice(seen).some((e) => e.event === name)) {
        throw new Error(`stream ended before a ${name} event`);
      }
    }
  };
  return { events, ended, nextEvent, close: () => ctl.abort() };
}

/** Runs `statement` on a connection of its own (as an operator or a failing network would). */
export async function onOwnConnection<T extends pg.QueryResultRow>(url: string, statement: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(statement, values)).rows;
  } finally {
    await c.end();
  }
}

/** Ends the server session behind every connection whose application_name is `name`; returns how many. */
export async function terminateConnections(url: string, name: string): Promise<number> {
  const rows = await onOwnConnection<{ ok: boolean }>(
    url,
    'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
    [name],
  );
  return rows.filter((r) => r.ok).length;
}
