import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { VideoRef } from '#sync/mutations/mutation-tx';
import { kyselySink } from '../changes/write-tx';
import type { ClientRow, PushStatements, SafetyEdge } from './push-statements';

/** The columns of a VideoRef, the same text in every statement that reads one. */
const VIDEO_REF = sql.raw('id, user_id, duration_ms, media_status, pinned_comment_id');

const affected = (r: { numAffectedRows?: bigint | undefined }) => Number(r.numAffectedRows ?? 0n) > 0;

/** PostgreSQL's push statements, plus what a push transaction reads up front (prefetch). */
export interface PostgresPushStatements extends PushStatements {
  /**
   * Locks the videos the push names (sorted by id) and reads, in one statement each, their refs and
   * the member's likes of them; video() and like() then answer from memory for those ids.
   */
  prefetch(userId: string, videoIds: string[], lock: VideoLock, deferLikes?: boolean): Promise<VideoRef[]>;
}

/**
 * The end-of-push like delete or insert changed fewer rows than the mutations counted (another
 * writer changed one of the member's likes meanwhile; the member lock makes this all but
 * impossible). The transaction is run again with each like written as it goes (push-postgres.ts).
 */
export class LikesRaced extends Error {
  constructor() {
    super("a deferred like write found the member's like changed by another transaction");
  }
}

/**
 * The member's like writes of a push of likes and unlikes, applied at its end: deletes of rows that
 * were there at its start, then inserts, one statement each. Each checks that it changed exactly the
 * rows the mutations counted (else LikesRaced): a counter never moves for a row that did not change.
 */
function deferredLikes(trx: Transaction<Database>) {
  const inserts = new Map<string, number>();
  const deletes = new Set<string>();
  return {
    insert: (videoId: string, now: number) => void inserts.set(videoId, now),
    delete: (videoId: string) => {
      // A like added earlier in this push never reached the table: dropping it is the whole delete.
      if (!inserts.delete(videoId)) deletes.add(videoId);
    },
    flush: async (member: string) => {
      if (deletes.size) {
        const ids = [...deletes];
        deletes.clear();
        const { rows } = await sql`DELETE FROM likes WHERE user_id = ${member} AND video_id = ANY(${ids}::text[]) RETURNING video_id`.execute(trx);
        if (rows.length !== ids.length) throw new LikesRaced();
      }
      if (inserts.size) {
        const added = [...inserts];
        inserts.clear();
        const { rows } = await sql`INSERT INTO likes (video_id, user_id, created_at)
          SELECT t.video_id, ${member}::text, t.created_at FROM unnest(${added.map(([id]) => id)}::text[], ${added.map(([, at]) => at)}::bigint[])
            AS t(video_id, created_at) ORDER BY 1
          ON CONFLICT DO NOTHING RETURNING video_id`.execute(trx);
        if (rows.length !== added.length) throw new LikesRaced();
      }
    },
  };
}

/**
 * How a push locks the videos it names at its start. 'update' (FOR NO KEY UPDATE, in id order): its
 * mutations write them as they go (comments_count, views_count, a deletion), so it holds them
 * from the start, in the one order all pushes take them. 'share' (FOR KEY SHARE), for a push of
 * likes and unlikes only: it only keeps them from being deleted; their likes_count is written at the end, when
 * flushCounters locks them in id order. Concurrent like pushes on the same videos then overlap
 * until their last statements. Every push takes videos before scores rows, so they never deadlock.
 */
export type VideoLock = 'update' | 'share';

/**
 * PostgreSQL's push statements, through the push's transaction. Each is one fixed SQL text, so the
 * pool runs it as a named prepared statement (parsed and planned once per connection, db/postgres.ts).
 * One per push transaction (a retried transaction gets a new one): the per-push cache below is only
 * valid inside it.
 *
 * The cache saves two round trips per like. It is exact: the videos it holds are locked (they
 * cannot be deleted, and id, owner and duration do not change; a media status that becomes ready
 * meanwhile is as if the push had come first), and the member's likes are written only by the
 * member's own pushes, which the member lock serializes. Counters still follow the row
 * counts of the INSERT … ON CONFLICT DO NOTHING and DELETE: written as each mutation runs, or (a push
 * of likes and unlikes) at its end, checked against what the cache counted (deferredLikes).
 */
export function postgresPushStatements(trx: Transaction<Database>): PostgresPushStatements {
  // Absent from the map: not prefetched (ask the database); null: known not to exist.
  const videos = new Map<string, VideoRef | null>();
  const likes = new Map<string, { created_at: number } | null>();
  let member: string | undefined;
  let lockedForUpdate = false;
  // After prefetch (a push transaction, which calls flushCounters at its end): likes_count moves,
  // per video, written at the end in one statement. Without it (a bare mutation) they are written at once.
  let deferCounters = false;
  const counters = new Map<string, number>();
  // deferLikes (a push of likes and unlikes only): the member's like writes, at the end (deferredLikes).
  let deferLikes = false;
  const likeWrites = deferredLikes(trx);
  const flushLikes = () => (member ? likeWrites.flush(member) : Promise.resolve());
  const knownLike = (videoId: string, userId: string) => userId === member && likes.has(videoId);
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
    prefetch: async (userId, videoIds, lock, likesAtEnd = false) => {
      member = userId;
      deferLikes = likesAtEnd;
      lockedForUpdate = lock === 'update';
      deferCounters = true;
      if (!videoIds.length) return [];
      // Either lock keeps the videos from being deleted under the push's mutations (VideoLock).
      const { rows } =
        lock === 'update'
          ? await sql<VideoRef>`SELECT ${VIDEO_REF} FROM videos WHERE id = ANY(${videoIds}) ORDER BY id FOR NO KEY UPDATE`.execute(trx)
          : await sql<VideoRef>`SELECT ${VIDEO_REF} FROM videos WHERE id = ANY(${videoIds}) ORDER BY id FOR KEY SHARE`.execute(trx);
      for (const id of videoIds) videos.set(id, null);
      for (const r of rows) videos.set(r.id, r);
      const liked = await sql<{ video_id: string; created_at: number }>`SELECT video_id, created_at FROM likes
        WHERE user_id = ${userId} AND video_id = ANY(${videoIds})`.execute(trx);
      for (const id of videoIds) likes.set(id, null);
      for (const r of liked.rows) likes.set(r.video_id, { created_at: Number(r.created_at) });
      return rows;
    },
    // A video this transaction deleted: it (and its likes) are gone for the mutations after it.
    // (Likes are deferred only in pushes of likes and unlikes, which delete no video.)
    videoUpdated: (id, patch) => {
      const known = videos.get(id);
      if (known) videos.set(id, { ...known, ...patch });
    },
    forgetVideo: (id) => {
      videos.set(id, null);
      likes.set(id, null);
    },
    // FOR KEY SHARE (a video not prefetched): it cannot be deleted under the mutation (a like of a
    // video deleted meanwhile would fail its foreign key instead of being refused as not_found).
    video: async (id) => {
      const known = videos.get(id);
      if (known !== undefined) return known ?? undefined;
      return (await sql<VideoRef>`SELECT ${VIDEO_REF} FROM videos WHERE id = ${id} FOR KEY SHARE`.execute(trx)).rows[0];
    },
    like: async (videoId, userId) => {
      if (knownLike(videoId, userId)) return likes.get(videoId) ?? undefined;
      return (await sql<{ created_at: number }>`SELECT created_at FROM likes WHERE video_id = ${videoId} AND user_id = ${userId}`.execute(trx)).rows[0];
    },
    insertLike: async (videoId, userId, now) => {
      // Deferred: the cache is exact (see above), and the flush checks that every counted row was added.
      if (deferLikes && knownLike(videoId, userId)) {
        if (likes.get(videoId)) return false;
        likeWrites.insert(videoId, now);
        likes.set(videoId, { created_at: now });
        return true;
      }
      const added = affected(
        await sql`INSERT INTO likes (video_id, user_id, created_at) VALUES (${videoId}, ${userId}, ${now}) ON CONFLICT DO NOTHING`.execute(trx),
      );
      if (added && userId === member) likes.set(videoId, { created_at: now });
      return added;
    },
    deleteLike: async (videoId, userId) => {
      if (deferLikes && knownLike(videoId, userId)) {
        if (!likes.get(videoId)) return false;
        likeWrites.delete(videoId);
        likes.set(videoId, null);
        return true;
      }
      await flushLikes();
      const removed = affected(await sql`DELETE FROM likes WHERE video_id = ${videoId} AND user_id = ${userId}`.execute(trx));
      if (userId === member) likes.set(videoId, null);
      return removed;
    },
    // Increments, summed: the moves decided by rows that really changed, written at the end.
    bumpLikes: async (by, videoId) => {
      if (deferCounters) counters.set(videoId, (counters.get(videoId) ?? 0) + by);
      else await sql`UPDATE videos SET likes_count = likes_count + ${by} WHERE id = ${videoId}`.execute(trx);
    },
    flushCounters: async () => {
      await flushLikes();
      const moved = [...counters].filter(([, by]) => by !== 0);
      counters.clear();
      if (!moved.length) return;
      const ids = moved.map(([id]) => id);
      if (!lockedForUpdate) await sql`SELECT id FROM videos WHERE id = ANY(${ids}::text[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
      await sql`UPDATE videos SET likes_count = videos.likes_count + t.by
        FROM unnest(${ids}::text[], ${moved.map(([, by]) => by)}::integer[]) AS t(id, by) WHERE videos.id = t.id`.execute(trx);
    },
    logChanges: async (rows) => kyselySink(trx)(rows),
    safetyEdges: async (user) =>
      (
        await sql<SafetyEdge>`SELECT 'out' AS edge, blocked_id AS other FROM blocks WHERE blocker_id = ${user}
          UNION ALL SELECT 'in', blocker_id FROM blocks WHERE blocked_id = ${user}
          UNION ALL SELECT 'muted', muter_id FROM mutes WHERE muted_id = ${user}`.execute(trx)
      ).rows,
  };
}
