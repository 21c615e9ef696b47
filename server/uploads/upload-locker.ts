import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import pg from 'pg';
import type { Logger } from '../logger';

/** The channel a waiter names an upload id on, asking its holder (on any instance) to let go. */
export const RELEASE_CHANNEL = 'vidi_tus_release';
/** As @tus/server's MemoryLocker: a request that cannot have the upload within this gives up. */
const ACQUIRE_TIMEOUT_MS = 30_000;
/** A waiter asks again this often, in case the lock passed to a third request meanwhile. */
const ASK_AGAIN_MS = 1_000;
/** With no lock held or wanted for this long, the listening connection is closed (and reopened on demand). */
const LISTEN_IDLE_MS = 10_000;
const MAX_CONNECTIONS = 20;

/** Upload locks have a seed of their own, apart from db/locks.ts and server/uploads/video-lock.ts. */
const KEY_SQL = 'hashtextextended($1, 13)';

/**
 * The tus lock of an upload across every instance sharing one PostgreSQL database: a session
 * advisory lock on a connection of its own, held from lock() to unlock(). @tus/server's default
 * MemoryLocker only orders the requests of one process, and the PATCHes of one upload may reach
 * different instances (the S3 store keeps a short tail part between them, which two writers at once
 * would corrupt).
 *
 * A waiter asks the holder to let go with a NOTIFY of the upload id; every instance LISTENs, and the
 * one holding it calls the holder's requestRelease, on which @tus/server ends that request (after its
 * lockDrainTimeout) and unlocks. A holder killed with -9 loses its connection, and PostgreSQL frees
 * its lock with it. The tus protocol leaves this to the server ("the Server MUST acknowledge
 * successful PATCH requests" and offsets "MUST" match, https://tus.io/protocols/resumable-upload#patch):
 * the lock is what keeps two PATCHes from both acknowledging bytes at one offset.
 */
export class PgUploadLocker implements Locker {
  private readonly pool: pg.Pool;
  /** Locks this process holds: upload id -> its connection and how to ask its request to end. */
  private readonly held = new Map<string, { client: pg.PoolClient; requestRelease: RequestRelease; onError: (err: Error) => void }>();
  private wanted = 0;
  private listener: Promise<pg.Client> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
    readonly acquireTimeoutMs = ACQUIRE_TIMEOUT_MS,
  ) {
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: MAX_CONNECTIONS,
      // A request that cannot even have a connection within the lock's timeout gives up as one that waited for the lock.
      connectionTimeoutMillis: acquireTimeoutMs,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // Without a listener, an idle connection that the server closes crashes the process.
    this.pool.on('error', (err) => this.log.error('upload lock connection lost', err));
  }

  newLock(id: string): Lock {
    return new PgUploadLock(this, id);
  }

  /** Uploads whose lock this process holds (tests). */
  heldIds(): string[] {
    return [...this.held.keys()];
  }

  /** Drops every connection; locks still held go with theirs (the pool waits for none). */
  async close(): Promise<void> {
    this.closed = true;
    for (const { client } of this.held.values()) client.release(true);
    this.held.clear();
    await this.stopListening();
    await this.pool.end();
  }

  /** @internal PgUploadLock's way in. */
  async acquire(id: string, signal: AbortSignal, requestRelease: RequestRelease): Promise<pg.PoolClient> {
    if (this.closed) throw ERRORS.ERR_LOCK_TIMEOUT;
    this.wanted++;
    this.cancelIdleStop();
    try {
      // Listening before holding: a release asked for right after the lock is taken is heard.
      await this.listening();
      const deadline = Date.now() + this.acquireTimeoutMs;
      const client = await this.pool.connect().catch((e: unknown) => {
        this.log.error('no connection for an upload lock', e);
        throw ERRORS.ERR_LOCK_TIMEOUT;
      });
      try {
        await this.waitFor(client, id, signal, deadline);
      } catch (e) {
        client.release();
        throw e;
      }
      // A connection lost while held has lost its lock too: its request is asked to end at once,
      // before another instance's takes the upload. Without a listener the error would crash the process.
      let told = false;
      const onError = (err: Error) => {
        if (told || this.held.get(id)?.client !== client) return;
        told = true;
        this.log.error('upload lock connection lost while held', err);
        void Promise.resolve(requestRelease()).catch(() => undefined);
      };
      client.on('error', onError);
      this.held.set(id, { client, requestRelease, onError });
      return client;
    } finally {
      this.wanted--;
      this.maybeStopListening();
    }
  }

  /** @internal */
  async release(id: string, client: pg.PoolClient): Promise<void> {
    const holder = this.held.get(id);
    // Closed meanwhile: the connection and its lock are gone already.
    if (holder?.client !== client) return;
    this.held.delete(id);
    try {
      await client.query(`SELECT pg_advisory_unlock(${KEY_SQL})`, [id]);
      // Back in the pool, which listens for its errors again; a listener per use would pile up.
      client.removeListener('error', holder.onError);
      client.release();
    } catch (e) {
      // The connection is dropped instead (keeping the listener: it may still report errors), and
      // PostgreSQL frees the lock with it.
      client.release(e instanceof Error ? e : true);
    }
    this.maybeStopListening();
  }

  private async waitFor(client: pg.PoolClient, id: string, signal: AbortSignal, deadline: number): Promise<void> {
    let askedAt = 0;
    let pause = 10;
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${KEY_SQL}) AS ok`, [id]);
      if (rows[0]?.ok) return;
      if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (Date.now() - askedAt >= ASK_AGAIN_MS) {
        askedAt = Date.now();
        await client.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, id]);
      }
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
      pause = Math.min(pause * 2, 200);
    }
  }

  private listening(): Promise<pg.Client> {
    this.listener ??= this.listen().catch((e: unknown) => {
      this.listener = null;
      throw e;
    });
    return this.listener;
  }

  private async listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const lost = (err?: Error) => {
      if (err) this.log.error('upload lock listener lost; reconnecting', err);
      if (this.listener && !this.closed) {
        this.listener = null;
        // Holders must stay reachable: listen again at once if any lock is held or wanted.
        if (this.held.size + this.wanted > 0) void this.listening().catch((e: unknown) => this.log.error('upload lock listener failed', e));
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      const holder = msg.payload ? this.held.get(msg.payload) : undefined;
      if (holder) void Promise.resolve(holder.requestRelease()).catch(() => undefined);
    });
    await client.connect();
    await client.query(`LISTEN ${RELEASE_CHANNEL}`);
    return client;
  }

  private cancelIdleStop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private maybeStopListening(): void {
    if (this.held.size + this.wanted > 0 || this.idleTimer || !this.listener) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.held.size + this.wanted === 0) void this.stopListening();
    }, LISTEN_IDLE_MS);
    this.idleTimer.unref();
  }

  private async stopListening(): Promise<void> {
    this.cancelIdleStop();
    const pending = this.listener;
    this.listener = null;
    const client = await pending?.catch(() => null);
    await client?.end().catch(() => undefined);
  }
}

class PgUploadLock implements Lock {
  private client: pg.PoolClient | null = null;

  constructor(
    private readonly locker: PgUploadLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    this.client = await this.locker.acquire(this.id, signal, requestRelease);
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('Releasing an unlocked lock!');
    this.client = null;
    await this.locker.release(this.id, client);
  }
}
