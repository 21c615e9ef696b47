import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { onPostgres } from '#db/migrations/portable';

/**
 * Takes, until the transaction ends, the lock of one client-chosen video id (PostgreSQL; SQLite runs
 * one write transaction at a time, so nothing is needed there). Held by what decides whose a video
 * id is and where its poster and captions land: an upload's creation (no other member's upload or
 * video may hold the id), its finish (the video row) and the poster and captions writes. Under READ
 * COMMITTED two of them could otherwise each read the other's rows as absent and both write.
 */
export async function lockVideoId(trx: Transaction<Database>, videoId: string): Promise<void> {
  // A seed of its own keeps these keys apart from the member locks of db/locks.ts.
  if (onPostgres(trx as unknown as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${videoId}, 11))`.execute(trx);
}
