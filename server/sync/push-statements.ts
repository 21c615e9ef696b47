import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { VideoRef } from '#sync/mutations/mutation-tx';
import type { ChangeRow } from '../changes/change-log';

/** The client's row as a push reads it (absent: a client id never seen). */
export interface ClientRow {
  user_id: string;
  last_mutation_id: number;
}

/**
 * The statements of the push hot path (likes, the client's mutation id, a mutation's savepoint, the
 * change log), one form per engine: SQLite's synchronous prepared statements (below) and
 * PostgreSQL's fixed-text queries through the push's transaction (push-statements-postgres.ts).
 * Kysely builds and compiles every query on every call; at ~15 statements per mutation that was
 * most of a push's CPU on SQLite (measured with --cpu-prof, see docs/benchmarks.md).
 *
 * Writes answer whether a row really changed: a counter moves only then (docs/sync.md,
 * "Concurrency on PostgreSQL"), never on what an earlier read saw.
 */
export interface PushStatements {
  /**
   * The client's row. On PostgreSQL it is created first when new (owned by `userId`, at 0) and then
   * locked until the commit, so two pushes of one client id never both apply the same mutation.
   */
  client(clientId: string, userId: string, now: number): Promise<ClientRow | undefined>;
  /** Stores the client's new last_mutation_id (`known`: client() found its row). */
  saveClient(clientId: string, userId: string, last: number, now: number, known: boolean): Promise<void>;
  /** One mutation's savepoint: refused, its writes go and the push goes on. */
  savepoint(): Promise<void>;
  release(): Promise<void>;
  rollbackTo(): Promise<void>;
  video(id: string): Promise<VideoRef | undefined>;
  like(videoId: string, userId: string): Promise<{ created_at: number } | undefined>;
  /** Whether the like was added (false: it was there already). */
  insertLike(videoId: string, userId: string, now: number): Promise<boolean>;
  /** Whether a like was removed (false: it was not there). */
  deleteLike(videoId: string, userId: string): Promise<boolean>;
  bumpLikes(by: number, videoId: string): Promise<void>;
  /** Writes what bumpLikes buffered (PostgreSQL); called at the push's end, before its scores and change log. */
  flushCounters(): Promise<void>;
  /** A video this transaction deleted: forgets what was cached of it (PostgreSQL's per-push cache). */
  forgetVideo(id: string): void;
  /** A video this transaction updated (its pin): what is cached of it takes the new values. */
  videoUpdated(id: string, patch: Partial<VideoRef>): void;
  /** The change-log rows of a push: its last write before the commit (or the push's savepoint release). */
  logChanges(rows: ChangeRow[]): Promise<void>;
  /** The member's blocks either way and the members who muted them (safety-rules.ts, safetyOf). */
  safetyEdges(userId: string): Promise<SafetyEdge[]>;
}

/** One of a member's safety edges: `out` a member they blocked, `in` one who blocked them, `muted` one who muted them. */
export interface SafetyEdge {
  edge: 'out' | 'in' | 'muted';
  other: string;
}

function prepare(sqlite: SQLite.Database) {
  return {
    // Kysely's savepoint() builds a new transaction object per call; these are three fixed statements.
    pushSavepoint: sqlite.prepare('SAVEPOINT push'),
    pushRelease: sqlite.prepare('RELEASE push'),
    pushRollbackTo: sqlite.prepare('ROLLBACK TO push'),
    savepoint: sqlite.prepare('SAVEPOINT mutation'),
    release: sqlite.prepare('RELEASE mutation'),
    rollbackTo: sqlite.prepare('ROLLBACK TO mutation'),
    client: sqlite.prepare<[string], ClientRow>('SELECT user_id, last_mutation_id FROM sync_clients WHERE client_id = ?'),
    insertClient: sqlite.prepare<[string, string, number, number]>(
      'INSERT INTO sync_clients (client_id, user_id, last_mutation_id, updated_at) VALUES (?, ?, ?, ?)',
    ),
    moveClient: sqlite.prepare<[number, number, string]>('UPDATE sync_clients SET last_mutation_id = ?, updated_at = ? WHERE client_id = ?'),
    video: sqlite.prepare<[string], VideoRef>('SELECT id, user_id, duration_ms, media_status, pinned_comment_id FROM videos WHERE id = ?'),
    like: sqlite.prepare<[string, string], { created_at: number }>('SELECT created_at FROM likes WHERE video_id = ? AND user_id = ?'),
    insertLike: sqlite.prepare<[string, string, number]>('INSERT INTO likes (video_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    deleteLike: sqlite.prepare<[string, string]>('DELETE FROM likes WHERE video_id = ? AND user_id = ?'),
    bumpLikes: sqlite.prepare<[number, string]>('UPDATE videos SET likes_count = likes_count + ? WHERE id = ?'),
    owners: sqlite.prepare<[string], string>('SELECT DISTINCT user_id FROM videos WHERE id IN (SELECT value FROM json_each(?))').pluck(),
    safetyEdges: sqlite.prepare<{ user: string }, SafetyEdge>(
      `SELECT 'out' AS edge, blocked_id AS other FROM blocks WHERE blocker_id = @user
        UNION ALL SELECT 'in', blocker_id FROM blocks WHERE blocked_id = @user
        UNION ALL SELECT 'muted', muter_id FROM mutes WHERE muted_id = @user`,
    ),
    logChange: sqlite.prepare<[ChangeRow]>(
      'INSERT INTO change_log (entity, entity_id, video_id, user_id, deleted, created_at) VALUES (@entity, @entity_id, @video_id, @user_id, @deleted, @created_at)',
    ),
  };
}

/**
 * SQLite's push statements, compiled once per connection. Callers must be inside the Kysely
 * transaction of the push group, which holds the single connection: these statements then run in
 * that transaction and its savepoints, never in another request's. SQLite has one writer at a time,
 * so the change log needs no lock here (writeChangeLog's lock is PostgreSQL's).
 */
export const sqlitePushStatements = perConnection((sqlite) => {
  const s = prepare(sqlite);
  const statements: PushStatements = {
    client: async (clientId) => s.client.get(clientId),
    saveClient: async (clientId, userId, last, now, known) => {
      if (known) s.moveClient.run(last, now, clientId);
      else s.insertClient.run(clientId, userId, last, now);
    },
    savepoint: async () => void s.savepoint.run(),
    release: async () => void s.release.run(),
    rollbackTo: async () => void s.rollbackTo.run(),
    video: async (id) => s.video.get(id),
    like: async (videoId, userId) => s.like.get(videoId, userId),
    insertLike: async (videoId, userId, now) => s.insertLike.run(videoId, userId, now).changes > 0,
    deleteLike: async (videoId, userId) => s.deleteLike.run(videoId, userId).changes > 0,
    bumpLikes: async (by, videoId) => void s.bumpLikes.run(by, videoId),
    flushCounters: async () => undefined,
    // Nothing cached on SQLite: every read is an in-process prepared statement.
    forgetVideo: () => undefined,
    videoUpdated: () => undefined,
    logChanges: async (rows) => {
      for (const row of rows) s.logChange.run(row);
    },
    safetyEdges: async (user) => s.safetyEdges.all({ user }),
  };
  /** The group's savepoint around each push, and the owners of a push's videos (push-group.ts). */
  const group = {
    savepoint: () => s.pushSavepoint.run(),
    release: () => s.pushRelease.run(),
    rollbackTo: () => s.pushRollbackTo.run(),
    owners: (videoIds: string[]) => s.owners.all(JSON.stringify(videoIds)),
  };
  return { ...statements, group };
});

/** The SQLite form: also opens and closes the group's savepoint around each push. */
export type SqlitePushStatements = ReturnType<typeof sqlitePushStatements>;
