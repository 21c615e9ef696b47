import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { VideoRef } from '#sync/mutations/mutation-tx';
import type { changeRow } from '../changes/change-log';

/**
 * Prepared statements for the push hot path (likes, the client's mutation id, the change log).
 * Kysely builds and compiles every query on every call; at ~15 statements per mutation that was
 * most of a push's CPU (measured with --cpu-prof, see docs/benchmarks.md). Callers must be inside
 * the Kysely transaction of the push, which holds the single connection: these statements then run
 * in that transaction and its savepoints, never in another request's.
 */
function prepare(sqlite: SQLite.Database) {
  return {
    // Kysely's savepoint() builds a new transaction object per call; these are three fixed statements.
    pushSavepoint: sqlite.prepare('SAVEPOINT push'),
    pushRelease: sqlite.prepare('RELEASE push'),
    pushRollbackTo: sqlite.prepare('ROLLBACK TO push'),
    savepoint: sqlite.prepare('SAVEPOINT mutation'),
    release: sqlite.prepare('RELEASE mutation'),
    rollbackTo: sqlite.prepare('ROLLBACK TO mutation'),
    client: sqlite.prepare<[string], { user_id: string; last_mutation_id: number }>('SELECT user_id, last_mutation_id FROM sync_clients WHERE client_id = ?'),
    insertClient: sqlite.prepare<[string, string, number, number]>(
      'INSERT INTO sync_clients (client_id, user_id, last_mutation_id, updated_at) VALUES (?, ?, ?, ?)',
    ),
    moveClient: sqlite.prepare<[number, number, string]>('UPDATE sync_clients SET last_mutation_id = ?, updated_at = ? WHERE client_id = ?'),
    video: sqlite.prepare<[string], VideoRef>('SELECT id, user_id, duration_ms FROM videos WHERE id = ?'),
    like: sqlite.prepare<[string, string], { created_at: number }>('SELECT created_at FROM likes WHERE video_id = ? AND user_id = ?'),
    insertLike: sqlite.prepare<[string, string, number]>('INSERT INTO likes (video_id, user_id, created_at) VALUES (?, ?, ?)'),
    deleteLike: sqlite.prepare<[string, string]>('DELETE FROM likes WHERE video_id = ? AND user_id = ?'),
    bumpLikes: sqlite.prepare<[number, string]>('UPDATE videos SET likes_count = likes_count + ? WHERE id = ?'),
    logChange: sqlite.prepare<[ReturnType<typeof changeRow>]>(
      'INSERT INTO change_log (entity, entity_id, video_id, user_id, deleted, created_at) VALUES (@entity, @entity_id, @video_id, @user_id, @deleted, @created_at)',
    ),
  };
}

export const pushStatements = perConnection((sqlite) => {
  const s = prepare(sqlite);
  return {
    ...s,
    /** The change-log rows of one mutation, as a ChangeSink (made once per connection, not per mutation). */
    logChanges: (rows: Array<ReturnType<typeof changeRow>>) => {
      for (const row of rows) s.logChange.run(row);
    },
  };
});
export type PushStatements = ReturnType<typeof pushStatements>;
