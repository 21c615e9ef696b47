import { sqliteOf } from '#db/engine';
import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { perConnection } from '#db/per-connection';
import type { AppDeps, AuthUser } from '../context';
import { rankOnBoard, readLeaderboards } from '../rewards/leaderboards';
import { readChangeSets } from '../sync/pull-changes';
import { readProfile } from '../sync/pull';
import { readVideosByIds } from '../videos/feed-rows';
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
 * were read at and dropped as soon as it moves.
 */
export class SharedDeltas {
  /** How many times the shared part was read from the database (tests and metrics). */
  reads = 0;
  private head = -1;
  private readonly byFrom = new Map<number, SharedDelta>();

  constructor(private readonly deps: AppDeps) {}

  /** Call inside the transaction that also reads the per-member part, so both agree with `head`. */
  async read(trx: Transaction<Database>, from: number, head: number): Promise<SharedDelta> {
    const now = this.deps.now();
    if (head !== this.head) {
      this.byFrom.clear();
      this.head = head;
    }
    const hit = this.byFrom.get(from);
    if (hit && now - hit.readAt <= MAX_AGE_MS) return hit;
    this.reads++;
    const value: SharedDelta = { from, head, readAt: now, changes: await this.readChanges(trx, from, now) };
    if (this.byFrom.size >= MAX_ENTRIES) this.byFrom.delete(this.byFrom.keys().next().value!);
    this.byFrom.set(from, value);
    return value;
  }

  private async readChanges(trx: Transaction<Database>, from: number, now: number): Promise<SharedDelta['changes']> {
    const sets = from > this.head ? null : await readChangeSets(trx, from, [], new Set());
    if (!sets) return null;
    const videos = readVideosByIds(sqliteOf(this.deps.engine), NOBODY, [...sets.changedVideos]);
    const present = new Set(videos.map((v) => v.id));
    const deleted = new Set(sets.deletedVideos);
    for (const id of sets.changedVideos) if (!present.has(id)) deleted.add(id);
    return {
      count: sets.count,
      renamedUsers: sets.renamedUsers,
      videos,
      deletedVideos: [...deleted].filter((id) => !present.has(id)),
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
  const liked = likedAmong(
    deps,
    user.id,
    changes.videos.map((v) => v.id),
  );
  // The shared read sees a video still processing as gone; to its uploader it is a card with progress.
  const own = changes.deletedVideos.length ? readVideosByIds(sqliteOf(deps.engine), user.id, changes.deletedVideos) : [];
  const ownIds = new Set(own.map((v) => v.id));
  const lastMutationId = clientId ? (ownStatements(sqliteOf(deps.engine)).lastMutation.get(clientId, user.id)?.last_mutation_id ?? 0) : 0;
  const boards = changes.leaderboards;
  return {
    cursor: String(shared.head),
    reset: false,
    videos: [...changes.videos.map((v) => (liked.has(v.id) ? { ...v, liked_by_me: true } : v)), ...own],
    deleted_videos: ownIds.size ? changes.deletedVideos.filter((id) => !ownIds.has(id)) : changes.deletedVideos,
    comments: [],
    deleted_comments: [],
    comments_loaded: [],
    profile: changes.renamedUsers.has(user.id) ? await readProfile(trx, user.id) : null,
    leaderboards: boards && {
      ...boards,
      viewer_id: user.id,
      me: { creator: await rankOnBoard(trx, 'creator', user.id), viewer: await rankOnBoard(trx, 'viewer', user.id) },
    },
    last_mutation_id: lastMutationId,
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

/** Which of `videoIds` the member likes: one primary-key lookup per video. */
function likedAmong(deps: AppDeps, userId: string, videoIds: string[]): Set<string> {
  if (!videoIds.length) return new Set();
  const rows = ownStatements(sqliteOf(deps.engine)).liked.all(userId, JSON.stringify(videoIds));
  return new Set(rows.map((r) => r.video_id));
}
