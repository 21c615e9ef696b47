import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { sqliteOf } from '#db/engine';
import { MAX_PUSH_BATCH, type PushRequest, type PushResponse } from '#sync/protocol/messages';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { newPendingScores, newScoreMemo, primeEligibility } from '../rewards/score-events';
import { mutationVideoId } from '#sync/mutations/video-id';
import type { PushBatch } from './mutations/context';
import { afterCommit, applyPush, type AppliedPush } from './push';
import { pushOnPostgres } from './push-postgres';
import { sqlitePushStatements, type SqlitePushStatements } from './push-statements';

/** At most this many pushes share one transaction, so one commit never holds the database for long. */
const MAX_GROUP = 16;

interface Waiting {
  user: AuthUser;
  req: PushRequest;
  resolve(r: PushResponse): void;
  reject(err: unknown): void;
}

/**
 * Group commit for pushes, on SQLite. With synchronous = FULL every commit is an fsync, and better-sqlite3
 * blocks the event loop during it, so pushes from many clients queue behind one another anyway.
 * Those that are waiting when the database becomes free are applied in one transaction, each in a
 * savepoint of its own (a push that fails is rolled back alone and answered with its error), and
 * all are answered after the one commit: a result is still only sent once it is durable.
 * PostgreSQL does not group (push-postgres.ts): it runs transactions side by side, and it would
 * nest up to 16 x 100 savepoints in one transaction, far past its 64 cheap subtransactions.
 */
class PushGroups {
  private readonly waiting: Waiting[] = [];
  private running = false;
  private groupCount = 0;
  private pushCount = 0;

  constructor(private readonly deps: AppDeps) {}

  submit(user: AuthUser, req: PushRequest): Promise<PushResponse> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ user, req, resolve, reject });
      if (!this.running) {
        this.running = true;
        // One turn of the event loop first: pushes whose bytes already arrived join this group.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** For tests and metrics: pushes waiting now, groups committed so far and the pushes they held. */
  stats() {
    return { waiting: this.waiting.length, groups: this.groupCount, pushes: this.pushCount };
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length) await this.runGroup();
    } finally {
      this.running = false;
    }
  }

  private async runGroup(): Promise<void> {
    const { deps } = this;
    const statements = sqlitePushStatements(sqliteOf(deps.engine));
    // Points and like notifications are buffered per push and written at its end (push.ts, applyPush).
    const batch: PushBatch = { statements, scores: { ...newScoreMemo(), pending: newPendingScores([]) }, likeNotes: new Map() };
    const s = statements.group;
    let group: Waiting[] = [];
    const outcomes: Array<{ ok: AppliedPush } | { err: unknown }> = [];
    let trx;
    try {
      trx = await deps.db.startTransaction().execute();
      // Taken once the connection is ours: every push that queued while it was busy joins.
      group = this.waiting.splice(0, MAX_GROUP);
      for (const w of group) {
        s.savepoint();
        try {
          await primeScoring(trx, batch, s, w);
          outcomes.push({ ok: await applyPush(trx, batch, deps, w.user, w.req) });
          s.release();
        } catch (err) {
          s.rollbackTo();
          s.release();
          outcomes.push({ err });
        }
      }
      await trx.commit().execute();
    } catch (err) {
      if (trx)
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
      // Nothing of this group is durable: every push in it fails (the clients retry them).
      if (!group.length) group = this.waiting.splice(0, MAX_GROUP);
      for (const w of group) w.reject(err);
      return;
    }
    this.groupCount++;
    this.pushCount += group.length;
    group.forEach((w, i) => {
      const o = outcomes[i]!;
      if ('ok' in o) w.resolve(o.ok.response);
      else w.reject(o.err);
    });
    for (const o of outcomes) if ('ok' in o) await afterCommit(deps, o.ok);
  }
}

/**
 * Whether the pusher and the owners of the push's videos may score, read in one statement for the
 * push (as PostgreSQL's push does, push-postgres.ts) rather than once per new owner as its likes
 * come: each of those was a Kysely query, about a tenth of a 100-like push's time on SQLite. The
 * group's memo keeps the answers (no push changes a member's standing).
 */
async function primeScoring(trx: Transaction<Database>, batch: PushBatch, s: SqlitePushStatements['group'], w: Waiting): Promise<void> {
  const videoIds = w.req.mutations.map(mutationVideoId).filter((id): id is string => id !== undefined);
  if (videoIds.length) await primeEligibility(trx, batch.scores, [w.user.id, ...s.owners(videoIds)]);
}

const groups = new WeakMap<AppDeps, PushGroups>();

/** The push groups of a SQLite server (throws on PostgreSQL, which does not group). */
export function pushGroups(deps: AppDeps): PushGroups {
  sqliteOf(deps.engine);
  let g = groups.get(deps);
  if (!g) {
    g = new PushGroups(deps);
    groups.set(deps, g);
  }
  return g;
}

/**
 * Applies a push batch. Each mutation is atomic (on SQLite its own savepoint; on PostgreSQL a
 * refusal reruns the transaction without it, push.ts), in the transaction that also moves the
 * client's last_mutation_id, so a mutation is applied and acknowledged together or not at all;
 * a replay of an acknowledged id is a 'duplicate' without effect, and a permanent refusal is
 * 'rejected' and still advances the id (the client's queue never sticks on it). On SQLite, pushes
 * that arrive together share one write transaction (above); on PostgreSQL each push has its own
 * (push-postgres.ts). Either way a push is answered only after its transaction committed.
 */
export async function processPush(deps: AppDeps, user: AuthUser, req: PushRequest): Promise<PushResponse> {
  const { mutations } = req;
  if (mutations.length > MAX_PUSH_BATCH) {
    throw new ApiError(400, 'batch_too_large', `A push carries at most ${MAX_PUSH_BATCH} mutations; got ${mutations.length}.`);
  }
  for (let i = 1; i < mutations.length; i++) {
    if (mutations[i]!.id !== mutations[i - 1]!.id + 1) {
      throw new ApiError(400, 'invalid_batch', 'Mutation ids in a push must be consecutive and increasing.');
    }
  }
  return deps.engine.dialect === 'postgres' ? pushOnPostgres(deps, user, req) : pushGroups(deps).submit(user, req);
}
