import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { perConnection } from '#db/per-connection';
import type { AppDeps, AuthUser } from '../context';
import { rankOnBoard, readLeaderboards } from '../rewards/leaderboards';
import { readChangeSets, readVideoChanges, type ChangeSets } from '../sync/pull-changes';
import { readOwnChanges } from '../sync/own-rows';
import { readProfile, type OwnPullRows } from '../sync/pull';
import { readVia, readVideosByIds } from '../videos/feed-rows';
import type { Leaderboards } from '#sync/rest-api/rewards';
import type { PullResponse } from '#sync/protocol/messages';

/**
 * The part of a poke's delta that is the same for every connection at the same cursor: which
 * videos changed or went (their rows as nobody sees them: liked_by_me false) and the boards (top
 * lists, distribution). `null` parts: a snapshot would be needed, so the clients pull.
 */
export interface SharedDelta {
  from: number;
  head: number;
  readAt: number;
  changes: {
    count: number;
    renamedUsers: ReadonlySet<string>;
    accounts: ReadonlySet<string>;
    resyncs: ReadonlySet<string>;
    own: ChangeSets['own'];
    videos: PullResponse['videos'];
    deletedVideos: string[];
    leaderboards: Leaderboards | null;
  } | null;
}

/** Nobody has this id, so rows read for it carry no one's like. */
const NOBODY = '';
/** A cached part older than this is read again, also at the same head (bounds how stale it can get). */
const MAX_AGE_MS = 2000;
/** Connections sit at very few distinct cursors (the head at their last event); bound the cache anyway. */
const MAX_ENTRIES = 32;

/**
 * One per process (per deps): before it, each open stream ran a whole pull per poke, so 300
 * streams read the same leaderboards and video rows 300 times after every push and the event loop
 * stalled (/api/health at 150-840 ms; docs/decisions/0003-abuse-limits.md). Entries are kept for the change-log head they
 * were read at and dropped as soon as it moves forward.
 *
 * An entry holds the read while it is still running: on PostgreSQL the streams' transactions run
 * side by side on the pool, and all of them would miss a cache filled only when the first read
 * ends. The entry's key includes the head, so a transaction whose snapshot is one commit behind
 * the others never takes their rows (nor they its).
 */
export class SharedDeltas {
  /** How many times the shared part was read from the database (tests and metrics). */
  reads = 0;
  private head = -1;
  private readonly entries = new Map<string, { readAt: number; value: Promise<SharedDelta> }>();

  constructor(private readonly deps: AppDeps) {}

  /** Call inside the transaction that also reads the per-member part, so both agree with `head`. */
  read(trx: Transaction<Database>, from: number, head: number): Promise<SharedDelta> {
    const now = this.deps.now();
    if (head > this.head) {
      this.entries.clear();
      this.head = head;
    }
    const key = `${head}:${from}`;
    const hit = this.entries.get(key);
    if (hit && now - hit.readAt <= MAX_AGE_MS) return hit.value;
    this.reads++;
    const value = this.readChanges(trx, from, head, now).then((changes): SharedDelta => ({ from, head, readAt: now, changes }));
    const entry = { readAt: now, value };
    // A failed read is not kept: the next poke reads again.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return value;
  }

  private async readChanges(trx: Transaction<Database>, from: number, head: number, now: number): Promise<SharedDelta['changes']> {
    const sets = from > head ? null : await readChangeSets(trx, from, [], new Set());
    if (!sets) return null;
    const { videos, deletedVideos } = await readVideoChanges(readVia(this.deps.engine, trx), NOBODY, sets);
    return {
      count: sets.count,
      renamedUsers: sets.renamedUsers,
      accounts: sets.accounts,
      resyncs: sets.resyncs,
      own: sets.own,
      videos,
      deletedVideos,
      leaderboards: sets.count ? await readLeaderboards(trx, NOBODY, now) : null,
    };
  }
}

const instances = new WeakMap<AppDeps, SharedDeltas>();
export function sharedDeltasFor(deps: AppDeps): SharedDeltas {
  let s = instances.get(deps);
  if (!s) {
    s = new SharedDeltas(deps);
    instances.set(deps, s);
  }
  return s;
}

/**
 * The shared part completed for one member: the likes among the changed videos, their own
 * standing and profile, and the device's last_mutation_id; the same answer as a pull from `from`
 * with no open comment lists (tests/integration/live-streams.test.ts compares the two).
 */
export async function personalDelta(
  deps: AppDeps,
  trx: Transaction<Database>,
  user: AuthUser,
  clientId: string | null,
  shared: SharedDelta & { changes: NonNullable<SharedDelta['changes']> },
): Promise<PullResponse> {
  const { changes } = shared;
  const { liked, lastMutationId } = await readOwn(
    deps,
    trx,
    user.id,
    changes.videos.map((v) => v.id),
    clientId,
  );
  // The shared read sees a video still processing as gone; to its uploader it is a card with progress.
  const own = await readVideosByIds(readVia(deps.engine, trx), user.id, changes.deletedVideos);
  const ownIds = new Set(own.map((v) => v.id));
  const boards = changes.leaderboards;
  return {
    cursor: String(shared.head),
    reset: false,
    videos: [...changes.videos.map((v) => (liked.has(v.id) ? { ...v, liked_by_me: true } : v)), ...own],
    deleted_videos: ownIds.size ? changes.deletedVideos.filter((id) => !ownIds.has(id)) : changes.deletedVideos,
    comments: [],
    deleted_comments: [],
    comments_loaded: [],
    profile: changes.renamedUsers.has(user.id) || changes.accounts.has(user.id) ? await readProfile(trx, user.id) : null,
    leaderboards: boards && {
      ...boards,
      viewer_id: user.id,
      me: { creator: await rankOnBoard(trx, 'creator', user.id), viewer: await rankOnBoard(trx, 'viewer', user.id) },
    },
    last_mutation_id: lastMutationId,
    ...((await readOwnChanges(trx, user.id, changes.own)) as OwnPullRows),
  };
}

// Run for every connection on every change: compiled once per connection, not per call. Read while
// the delta's transaction holds the connection.
const ownStatements = perConnection((sqlite) => ({
  liked: sqlite.prepare<[string, string], { video_id: string }>(
    'SELECT video_id FROM likes WHERE user_id = ? AND video_id IN (SELECT value FROM json_each(?))',
  ),
  lastMutation: sqlite.prepare<[string, string], { last_mutation_id: number }>('SELECT last_mutation_id FROM sync_clients WHERE client_id = ? AND user_id = ?'),
}));

/**
 * Which of `videoIds` the member likes (one primary-key lookup per video) and the device's
 * last_mutation_id. On PostgreSQL both come from one statement: it runs for every connection on
 * every change, and each statement there is a round trip.
 */
async function readOwn(
  deps: AppDeps,
  trx: Transaction<Database>,
  userId: string,
  videoIds: string[],
  clientId: string | null,
): Promise<{ liked: Set<string>; lastMutationId: number }> {
  if (deps.engine.dialect === 'sqlite') {
    const s = ownStatements(deps.engine.sqlite);
    const liked = videoIds.length ? s.liked.all(userId, JSON.stringify(videoIds)).map((r) => r.video_id) : [];
    return { liked: new Set(liked), lastMutationId: clientId ? (s.lastMutation.get(clientId, userId)?.last_mutation_id ?? 0) : 0 };
  }
  const { rows } = await sql<{ liked: string[]; last_mutation_id: number | null }>`SELECT
      ARRAY(SELECT video_id FROM likes WHERE user_id = ${userId} AND video_id = ANY(${videoIds}::text[])) AS liked,
      (SELECT last_mutation_id FROM sync_clients WHERE client_id = ${clientId} AND user_id = ${userId}) AS last_mutation_id`.execute(trx);
  return { liked: new Set(rows[0]?.liked ?? []), lastMutationId: rows[0]?.last_mutation_id ?? 0 };
}
