import { insertMember } from '../helpers/users';
import type { Kysely } from 'kysely';
import type { DbHandle } from '#db/connect';
import type { Database as Schema } from '#db/schema';
import { openServerDatabase, startServer, type ServerProcess } from '../helpers/server-process';
import { tokenMinter } from '../bench/lib/context';

export interface RealServer {
  server: ServerProcess;
  /** A verified, active member (or admin, or unpaid account) written into the server's database, with an access token. */
  member(opts?: { isAdmin?: boolean; status?: 'active' | 'pending_payment' }): Promise<{ id: string; email: string; token: string }>;
  /** The server's database through Kysely, on its engine (opened on first use, closed by stop()). */
  db(): Kysely<Schema>;
  json(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; headers: Headers; json: any }>;
  stop(): Promise<void>;
}

/** The real server (spawned like `npm start`) on a fresh DATA_DIR (made by the helper, or by the server when `dataDir` does not exist yet), for tests that need real HTTP and real concurrency. */
export async function realServer(env: Record<string, string> = {}, dataDir?: string): Promise<RealServer> {
  const server = await startServer({ env: { LOG_LEVEL: 'error', ...env }, ...(dataDir ? { dataDir } : {}) });
  const mint = await tokenMinter(server.dataDir, server.url);
  let handle: DbHandle | undefined;
  const db = () => (handle ??= openServerDatabase(server)).db;
  return {
    server,
    db,
    async member(opts = {}) {
      const { id, email } = await insertMember(db(), opts);
      return { id, email, token: await mint(id) };
    },
    async json(method, path, body, token) {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json };
    },
    stop: async () => {
      await handle?.close();
      handle = undefined;
      await server.stop();
    },
  };
}
