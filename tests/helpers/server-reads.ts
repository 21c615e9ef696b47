import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { openServerDatabase, type ServerProcess } from './server-process';

/** A read of a test server's database beside its process (the browser tests' check of what reached the server). */
export async function onServer<T>(server: Pick<ServerProcess, 'databaseUrl'>, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const handle = openServerDatabase(server);
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}
