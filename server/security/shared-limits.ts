import { sql, type Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { RateLimitRule, RateLimitState } from './rate-limit';

/**
 * The rate limits of rate-limit.ts and token-bucket.ts kept in the rate_limits table (migration
 * 0010), for several instances of one PostgreSQL database: each check is one atomic upsert that
 * computes the window or the refill in SQL from the caller's `now`, so concurrent checks on any
 * instance count into the same row, and the answers (blocked, Retry-After) are the in-memory ones.
 */

/** A fixed-window limit (rate-limit.ts's RateLimiter) as the routes use it, in memory or shared. */
export interface WindowLimit {
  /** Counts a hit unless the key is already blocked; the state after it. */
  take(key: string, now: number): Promise<RateLimitState>;
  /** Gives back one hit of the current window. */
  release(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
}

/** A token bucket (token-bucket.ts) as the routes use it: 0, or the milliseconds until a token is earned. */
export interface BucketLimit {
  take(key: string, now: number): Promise<number>;
}

interface Row {
  started_at: number;
  level: number;
  counted: number;
}

export class SharedWindowLimit implements WindowLimit {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly name: string,
    private readonly rule: RateLimitRule,
  ) {}

  async take(key: string, now: number): Promise<RateLimitState> {
    const { limit, windowMs } = this.rule;
    // In SET, r.* are the row's values before this statement: a window that is over starts again.
    const over = sql`${now}::bigint - r.started_at >= ${windowMs}::bigint`;
    const { rows } = await sql<Row>`INSERT INTO rate_limits AS r (limiter, key, started_at, level, counted, expires_at)
      VALUES (${this.name}, ${key}, ${now}::bigint, 1, 1, ${now + windowMs}::bigint)
      ON CONFLICT (limiter, key) DO UPDATE SET
        started_at = CASE WHEN ${over} THEN ${now}::bigint ELSE r.started_at END,
        level = CASE WHEN ${over} THEN 1 WHEN r.level < ${limit}::float8 THEN r.level + 1 ELSE r.level END,
        counted = CASE WHEN ${over} OR r.level < ${limit}::float8 THEN 1 ELSE 0 END,
        expires_at = CASE WHEN ${over} THEN ${now + windowMs}::bigint ELSE r.expires_at END
      RETURNING started_at, level, counted`.execute(this.db);
    const row = rows[0]!;
    return {
      blocked: row.counted === 0,
      retryAfterMs: Number(row.started_at) + windowMs - now,
      remaining: Math.max(0, limit - row.level),
    };
  }

  async release(key: string, now: number): Promise<void> {
    await sql`UPDATE rate_limits SET level = level - 1
      WHERE limiter = ${this.name} AND key = ${key} AND level > 0 AND ${now}::bigint - started_at < ${this.rule.windowMs}::bigint`.execute(this.db);
  }

  async reset(key: string): Promise<void> {
    await sql`DELETE FROM rate_limits WHERE limiter = ${this.name} AND key = ${key}`.execute(this.db);
  }
}

export class SharedBucketLimit implements BucketLimit {
  private readonly perMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly name: string,
    private readonly rule: { burst: number; perMinute: number },
  ) {
    this.perMs = rule.perMinute / 60_000;
  }

  async take(key: string, now: number): Promise<number> {
    const { burst } = this.rule;
    // The tokens earned since the last take, capped at the burst; a clock that moved back earns nothing.
    const refilled = sql`LEAST(${burst}::float8, r.level + GREATEST(0, ${now}::bigint - r.started_at) * ${this.perMs}::float8)`;
    // From empty, a bucket is full again after this long: then its row says nothing a missing one would not.
    const expires = now + Math.ceil(burst / this.perMs);
    const { rows } = await sql<Row>`INSERT INTO rate_limits AS r (limiter, key, started_at, level, counted, expires_at)
      VALUES (${this.name}, ${key}, ${now}::bigint, ${burst - 1}::float8, 1, ${expires}::bigint)
      ON CONFLICT (limiter, key) DO UPDATE SET
        level = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
        counted = CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
        started_at = ${now}::bigint,
        expires_at = ${expires}::bigint
      RETURNING started_at, level, counted`.execute(this.db);
    const row = rows[0]!;
    return row.counted === 1 ? 0 : Math.ceil((1 - row.level) / this.perMs);
  }
}

/** Deletes the rows whose window is over or whose bucket is full again; returns how many. */
export async function deleteExpiredLimits(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const LIMIT_SWEEP_INTERVAL_MS = 10 * 60_000;

/** The periodic sweep of expired rate-limit rows, for the leader timers (server/cluster/leader-timers.ts). */
export function startLimitSweep(deps: { db: Kysely<Database>; now: () => number; log: { error(m: string, e?: unknown): void } }): () => void {
  const sweep = () => void deleteExpiredLimits(deps.db, deps.now()).catch((err: unknown) => deps.log.error('rate-limit sweep failed', err));
  sweep();
  const timer = setInterval(sweep, LIMIT_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
