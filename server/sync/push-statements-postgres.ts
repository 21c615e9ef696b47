import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { VideoRef } from '#sync/mutations/mutation-tx';
import { kyselySink } from '../changes/write-tx';
import type { ClientRow, PushStatements } from './push-statements';

const affected = (r: { numAffectedRows?: bigint | undefined }) => Number(r.numAffectedRows ?? 0n) > 0;

/**
 * PostgreSQL's push statements, through the push's transaction. Each is one fixed SQL text, so the
 * pool runs it as a named prepared statement (parsed and planned once per connection, db/postgres.ts).
 */
export function postgresPushStatements(trx: Transaction<Database>): PushStatements {
  return {
    client: async (clientId, userId, now) => {
      // A row to lock even for a new client id: two first pushes of one id would otherwise both see
      // "no row" and both apply. The insert is undone with the push if the push is refused.
      await sql`INSERT INTO sync_clients (client_id, user_id, last_mutation_id, updated_at) VALUES (${clientId}, ${userId}, 0, ${now})
        ON CONFLICT (client_id) DO NOTHING`.execute(trx);
      const { rows } = await sql<ClientRow>`SELECT user_id, last_mutation_id FROM sync_clients WHERE client_id = ${clientId} FOR UPDATE`.execute(trx);
      return rows[0];
    },
    // The row exists (client() made it): only its id moves.
    saveClient: async (clientId, _userId, last, now) => {
      await sql`UPDATE sync_clients SET last_mutation_id = ${last}, updated_at = ${now} WHERE client_id = ${clientId}`.execute(trx);
    },
    savepoint: async () => void (await sql`SAVEPOINT mutation`.execute(trx)),
    release: async () => void (await sql`RELEASE SAVEPOINT mutation`.execute(trx)),
    rollbackTo: async () => void (await sql`ROLLBACK TO SAVEPOINT mutation`.execute(trx)),
    // FOR KEY SHARE: the video cannot be deleted under the mutation (a like of a video deleted
    // meanwhile would fail its foreign key instead of being refused as not_found). Counter updates
    // do not conflict with it.
    video: async (id) => (await sql<VideoRef>`SELECT id, user_id, duration_ms FROM videos WHERE id = ${id} FOR KEY SHARE`.execute(trx)).rows[0],
    like: async (videoId, userId) =>
      (await sql<{ created_at: number }>`SELECT created_at FROM likes WHERE video_id = ${videoId} AND user_id = ${userId}`.execute(trx)).rows[0],
    insertLike: async (videoId, userId, now) =>
      affected(await sql`INSERT INTO likes (video_id, user_id, created_at) VALUES (${videoId}, ${userId}, ${now}) ON CONFLICT DO NOTHING`.execute(trx)),
    deleteLike: async (videoId, userId) => affected(await sql`DELETE FROM likes WHERE video_id = ${videoId} AND user_id = ${userId}`.execute(trx)),
    bumpLikes: async (by, videoId) => {
      await sql`UPDATE videos SET likes_count = likes_count + ${by} WHERE id = ${videoId}`.execute(trx);
    },
    logChanges: async (rows) => kyselySink(trx)(rows),
  };
}

/**
 * Locks, in one order for every push, the hot rows its mutations will write: the videos they name
 * (their counters) by id, then the `scores` rows of those videos' owners and of the member, by user
 * id. Taken as each mutation reached them, two pushes liking the same two videos (or videos of the
 * same two creators) in opposite orders would deadlock, and PostgreSQL finds a deadlock only after
 * deadlock_timeout (1 s), with every push on those rows queued behind it. These rows are held to the
 * commit either way (a counter update locks its row); the member's own rows are the member lock's.
 */
export async function lockPushRows(trx: Transaction<Database>, userId: string, videoIds: string[]): Promise<void> {
  if (!videoIds.length) return;
  const { rows } = await sql<{ user_id: string }>`SELECT user_id FROM videos WHERE id = ANY(${videoIds}) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
  const users = [...new Set([userId, ...rows.map((r) => r.user_id)])];
  await sql`SELECT user_id FROM scores WHERE user_id = ANY(${users}) ORDER BY user_id FOR UPDATE`.execute(trx);
}
