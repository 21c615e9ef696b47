import type { PokeDelta, PullResponse } from '../../sync/protocol/messages';
import { MAX_PUSH_BATCH } from '../../sync/protocol/limits';
import { encodeFeedCursor } from '../../sync/protocol/feed-cursor';
import type { MutationArgs, MutationName } from '../../sync/mutations/schemas';
import { loadValidators, loadedValidators, type Validators } from './load-validators';
import { getMeta, setMeta, toVideoRow, type ClientDb, type OutboxEntry } from './db';
import { applyPull, CURSOR_KEY, FEED_END_KEY, MAX_CACHED_VIDEOS, resetCacheFor } from './apply-pull';
import { runTx } from './tx-queue';
import { batchOf, clientState, dropRejected, enqueueInTx, markSent, nextBatch, pendingOf, renumber, rotateClientId, type Rejection } from './outbox';
import { applyDelta } from './apply-delta';
import { rebase } from './rebase';
import { withSyncLock } from './flush-lock';
import { followStream, type StreamFollower } from './events-stream';
import { createStatusStore, type EngineStatus, type StatusStore } from './status';
import { trace } from './trace';
import { retryAfterMs } from './retry-after';

/** Flush retry delay: 200 ms times the attempt, capped (spec: retry backoff 200 ms x attempt). */
export const RETRY_STEP_MS = 200;
export const RETRY_CAP_MS = 10_000;
export const PAGE_SIZE = 20;
/** A push, pull or page that takes longer than this is abandoned and retried. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often a quiet engine checks for a queue left by a closed tab, or pulls without a live stream. */
export const PERIODIC_MS = 30_000;

export interface SyncOptions {
  userId: string;
  /** The current access token of userId, or null when signed out. */
  getAccessToken: () => string | null | Promise<string | null>;
  /** Refreshes the session; may return the new token. Called once per 401 before giving up. */
  refreshSession: () => Promise<unknown>;
  /** A queued mutation the server refused for good: it was rolled back; tell the user why. */
  onRejected?: (rejection: Rejection) => void;
  fetch?: typeof fetch;
  /** Origin of the API ('' in the browser: same origin). */
  baseUrl?: string;
  db: ClientDb;
  /** Follow /api/sync/events for live pokes (default true). */
  live?: boolean;
  /** Listen to window online/visibility events (default: when a window exists). */
  browserEvents?: boolean;
}

/** A network failure or 5xx: retried with backoff. */
class TemporaryError extends Error {
  constructor(
    message: string,
    readonly offline = false,
  ) {
    super(message);
  }
}

/** 429: the server asked the device to wait (Retry-After) before it sends again. Nothing was applied. */
class RateLimitedError extends TemporaryError {
  constructor(readonly waitMs: number) {
    super(`rate limited for ${waitMs} ms`);
  }
}

/** Sending is not possible as this user right now (signed out, suspended): the queue waits. */
class PausedError extends Error {
  constructor(readonly reason: NonNullable<EngineStatus['paused']>) {
    super(reason);
  }
}

function tokenSubject(token: string): string | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof json.sub === 'string' ? json.sub : null;
  } catch {
    return null;
  }
}

async function errorCode(res: Response): Promise<{ code: string; message: string; last_mutation_id?: number }> {
  try {
    const j = (await res.clone().json()) as { error?: { code?: string; message?: string }; last_mutation_id?: number };
    const out: { code: string; message: string; last_mutation_id?: number } = { code: j.error?.code ?? `http_${res.status}`, message: j.error?.message ?? res.statusText };
    if (typeof j.last_mutation_id === 'number') out.last_mutation_id = j.last_mutation_id;
    return out;
  } catch {
    return { code: `http_${res.status}`, message: res.statusText };
  }
}

/**
 * The sync engine of one user on one device (one per tab): pushes the outbox, pulls changes,
 * follows the live stream, and keeps retrying until everything is through.
 */
export class SyncEngine {
  readonly db: ClientDb;
  readonly userId: string;
  readonly status: StatusStore;
  private readonly opts: SyncOptions;
  private readonly fetchFn: typeof fetch;
  private readonly base: string;
  private needPush = false;
  private needPull = false;
  /** Local writes in flight: a push waits for them (under the lock) so it carries what they queue. */
  private readonly writes = new Set<Promise<OutboxEntry>>();
  /** Which hold of the flush lock is running (0: none): a batch read during it is valid for it. */
  private lockEpoch = 0;
  private epochs = 0;
  /** The queue as a local write saw it while this engine held the lock: the next push's batch. */
  private prefetched: { epoch: number; clientId: string; pending: OutboxEntry[] } | null = null;
  /** Deltas carried by pokes, oldest first, waiting to be applied instead of a pull. */
  private deltas: PokeDelta[] = [];
  private loop: Promise<void> | null = null;
  private lastOk = true;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Until when (Date.now()) a 429's Retry-After holds every round back; 0 when none does. */
  private holdUntil = 0;
  private batchSize = MAX_PUSH_BATCH;
  private stopped = false;
  private started: Promise<void> | null = null;
  private live: StreamFollower | null = null;
  private readonly open = new Map<string, number>();
  private readonly loaded = new Set<string>();
  private readonly cleanups: Array<() => void> = [];

  constructor(opts: SyncOptions) {
    this.opts = opts;
    this.db = opts.db;
    this.userId = opts.userId;
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.base = opts.baseUrl ?? '';
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    this.status = createStatusStore({ online: nav?.onLine ?? true, syncing: false, paused: null, live: false, failing: false });
  }

  /** Flushes on start, then on every trigger; safe to call once. */
  start(): Promise<void> {
    this.started ??= (async () => {
      // zod is not on the first screen: it loads now, while the cache is checked and the first
      // request is out, and every validation below awaits it.
      void loadValidators().catch(() => undefined);
      await resetCacheFor(this.db, this.userId);
      await runTx(this.db, () => rebase(this.db, this.userId));
      this.listen();
      this.schedule(true, true);
      // A safety net: another tab may have closed with a queue, or the live stream may be down.
      const periodic = setInterval(() => void this.periodic(), PERIODIC_MS);
      this.cleanups.push(() => clearInterval(periodic));
      if (this.opts.live !== false && !this.stopped) this.live = this.followLive();
    })();
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.live?.stop();
    for (const c of this.cleanups.splice(0)) c();
    await this.loop?.catch(() => undefined);
  }

  /** Queues a mutation (shown at once) and starts sending it. Invalid args throw a MutationError. */
  async mutate<N extends MutationName>(name: N, args: MutationArgs<N>): Promise<OutboxEntry> {
    const { parseMutation } = loadedValidators() ?? (await loadValidators());
    const parsed = parseMutation(name, args);
    if (!parsed.ok) throw parsed.error;
    return this.queueLocal(() => enqueueInTx(this.db, this.userId, parsed.mutation));
  }

  /** Likes or unlikes, whichever the local row shows, decided and queued in one transaction. */
  async toggleLike(videoId: string): Promise<OutboxEntry> {
    return this.queueLocal(async () => {
      // Both reads in one round trip: this is on the way from the click to the push.
      const [v, state] = await Promise.all([this.db.videos.get(videoId), clientState(this.db, this.userId)]);
      return enqueueInTx(this.db, this.userId, { name: v?.liked_by_me ? 'unlike' : 'like', args: { videoId } }, Date.now(), state);
    });
  }

  /**
   * Runs a local write (queue + optimistic rows, one transaction) and starts the flush at the same
   * time: the flush lock is acquired while the write is in flight, and the push waits for the write
   * under the lock (drain), so the click pays for the slower of the two, not for both.
   */
  private async queueLocal(write: () => Promise<OutboxEntry>): Promise<OutboxEntry> {
    let seen: SyncEngine['prefetched'] = null;
    const written = runTx(this.db, async () => {
      const entry = await write();
      // Usually the lock is already ours by now (it was asked for with the write): read the
      // batch in this transaction, where it cannot queue behind the live reads the commit wakes.
      // Only this hold of the lock changes ids and statuses, so the read stays valid for it.
      const epoch = this.lockEpoch;
      if (epoch) seen = { epoch, clientId: entry.client_id, pending: await pendingOf(this.db, this.userId) };
      return entry;
    });
    // Offered to the push only once committed: a batch from a transaction that failed would send
    // a mutation the device does not have, under an id it hands out again.
    const done = written.then((entry) => {
      if (seen) this.prefetched = seen;
      return entry;
    });
    this.writes.add(done);
    const forget = () => void this.writes.delete(done);
    done.then(forget, forget);
    this.schedule(true, true);
    const entry = await done;
    trace('enqueued');
    return entry;
  }

  /** Push then pull now; resolves when the engine is idle again. True if the last round succeeded. */
  async sync(): Promise<boolean> {
    this.schedule(true, true);
    while (this.loop) await this.loop;
    return this.lastOk;
  }

  /** Asks for a pull (e.g. after a poke); coalesced with any running round. */
  requestPull(): void {
    this.schedule(false, true);
  }

  /** Follows a video's comments while its dialog is open; returns the unfollow function. */
  openComments(videoId: string): () => void {
    this.open.set(videoId, (this.open.get(videoId) ?? 0) + 1);
    if (!this.loaded.has(videoId)) this.schedule(false, true);
    return () => {
      const n = (this.open.get(videoId) ?? 1) - 1;
      if (n <= 0) {
        this.open.delete(videoId);
        // Reopening later reloads the whole list: changes while closed were not followed.
        this.loaded.delete(videoId);
      } else this.open.set(videoId, n);
    };
  }

  /** Fetches the page below the oldest cached video. Resolves false when there is nothing more. */
  async loadOlder(): Promise<boolean> {
    if ((await getMeta<boolean>(this.db, FEED_END_KEY)) === true) return false;
    if ((await this.db.videos.count()) >= MAX_CACHED_VIDEOS) return false;
    const oldest = await this.db.server_videos.orderBy('[created_ms+id]').first();
    const q = `limit=${PAGE_SIZE}${oldest ? `&cursor=${encodeFeedCursor(oldest.created_ms, oldest.id)}` : ''}`;
    const res = await this.request(`/api/videos?${q}`, { method: 'GET' });
    if (!res.ok) throw new TemporaryError(`feed page: ${res.status}`);
    const [{ FeedPageSchema }, raw] = await Promise.all([loadValidators(), res.json()]);
    const page = FeedPageSchema.parse(raw);
    await runTx(this.db, async () => {
      const rows = page.items.map(toVideoRow);
      const fresh = [];
      for (const r of rows) if (!(await this.db.server_videos.get(r.id))) fresh.push(r);
      await this.db.server_videos.bulkPut(fresh);
      await this.db.videos.bulkPut(fresh);
      await rebase(this.db, this.userId, fresh.map((r) => r.id));
      if (!page.next_cursor) await setMeta(this.db, FEED_END_KEY, true);
    });
    return page.next_cursor !== null;
  }

  private async periodic(): Promise<void> {
    if (this.stopped || this.loop || this.retryTimer) return;
    const waiting = await this.db.outbox.where('user_id').equals(this.userId).filter((e) => e.status === 'pending').count();
    if (waiting > 0 || !this.status.get().live) this.schedule(waiting > 0, true);
  }

  private schedule(push: boolean, pull: boolean): void {
    if (this.stopped) return;
    if (push) this.needPush = true;
    if (pull) this.needPull = true;
    if (this.retryTimer) {
      // The server asked for a pause: a new action or poke waits for its timer too (the flags above
      // are kept), or each would be refused again. The queue itself is untouched, so order holds.
      if (Date.now() < this.holdUntil) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    this.loop ??= this.drain().finally(() => {
      this.loop = null;
    });
  }

  private async drain(): Promise<void> {
    trace('drain');
    while (!this.stopped && (this.needPush || this.needPull || this.deltas.length)) {
      const doPush = this.needPush;
      const doPull = this.needPull || this.needPush;
      // A pull covers every delta that arrived before it: those are dropped unread.
      const deltas = this.deltas.splice(0);
      this.needPush = false;
      this.needPull = false;
      this.status.set({ syncing: true });
      try {
        await withSyncLock(this.db.name, async () => {
          this.lockEpoch = ++this.epochs;
          try {
            trace('locked');
            if (doPush && this.writes.size) await Promise.allSettled([...this.writes]);
            if (doPush) await this.pushAll();
            if (doPull || (deltas.length > 0 && !(await this.applyDeltas(deltas)))) await this.pullOnce();
          } finally {
            this.lockEpoch = 0;
            this.prefetched = null;
          }
        });
        this.lastOk = true;
        this.attempt = 0;
        this.status.set({ online: true, paused: null, failing: false });
      } catch (err) {
        this.lastOk = false;
        this.needPush ||= doPush;
        this.needPull ||= doPull || deltas.length > 0;
        if (err instanceof PausedError) {
          // Waits for the next trigger (sign-in again, online, a new action): nothing is dropped.
          this.status.set({ paused: err.reason, online: true });
        } else {
          this.attempt += 1;
          const offline = err instanceof TemporaryError && err.offline;
          const limited = err instanceof RateLimitedError;
          // Being asked to wait is not a failure to report.
          this.status.set({ online: !offline, failing: !offline && !limited });
          const delay = Math.max(limited ? err.waitMs : 0, Math.min(RETRY_STEP_MS * this.attempt, RETRY_CAP_MS));
          this.holdUntil = limited ? Date.now() + delay : 0;
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.holdUntil = 0;
            this.schedule(false, false);
          }, delay);
        }
        break;
      }
    }
    this.status.set({ syncing: false });
  }

  private async token(): Promise<string> {
    const token = await this.opts.getAccessToken();
    if (!token) throw new PausedError('signed_out');
    // Never send this user's queue under someone else's identity.
    const sub = tokenSubject(token);
    if (sub !== null && sub !== this.userId) throw new PausedError('signed_out');
    return token;
  }

  private async send(path: string, init: { method: string; body?: unknown }, token: string, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const req: RequestInit = { method: init.method, headers };
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      req.body = JSON.stringify(init.body);
    }
    // A request that hangs would hold the flush lock for every tab: give up and retry instead.
    // The event stream has its own idle watchdog, so it passes a signal and no timeout.
    const timeout = signal ? null : new AbortController();
    const timer = timeout ? setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS) : null;
    req.signal = signal ?? timeout!.signal;
    try {
      trace(`fetch:${path}`);
      const res = await this.fetchFn(`${this.base}${path}`, req);
      // The body is read by the caller: keep the timer until headers and body are both in.
      if (timeout) {
        const body = [101, 204, 205, 304].includes(res.status) ? null : await res.arrayBuffer();
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      }
      return res;
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new TemporaryError(`network: ${String(err)}`, true);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** One request with auth: a 401 refreshes the session once and retries. */
  private async request(path: string, init: { method: string; body?: unknown }, signal?: AbortSignal): Promise<Response> {
    let res = await this.send(path, init, await this.token(), signal);
    if (res.status === 401) {
      const refreshed = await this.opts.refreshSession().catch(() => null);
      const token = typeof refreshed === 'string' && refreshed ? refreshed : await this.token();
      if (tokenSubject(token) !== null && tokenSubject(token) !== this.userId) throw new PausedError('signed_out');
      res = await this.send(path, init, token, signal);
      if (res.status === 401) throw new PausedError('signed_out');
    }
    if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers.get('retry-after')));
    if (res.status >= 500) throw new TemporaryError(`server answered ${res.status}`);
    if (res.status === 403) {
      const { code } = await errorCode(res);
      if (code === 'client_id_taken') return res;
      throw new PausedError(code === 'account_suspended' || code === 'payment_required' ? code : 'forbidden');
    }
    return res;
  }

  private async pushAll(): Promise<void> {
    // Bounded: each round either empties a batch or changes ids; a loop would be a bug, not a queue.
    for (let round = 0; round < 10_000; round++) {
      const pre = round === 0 && this.prefetched?.epoch === this.lockEpoch ? this.prefetched : null;
      this.prefetched = null;
      const { clientId, entries } = pre ? { clientId: pre.clientId, entries: batchOf(pre.pending, pre.clientId, this.batchSize) } : await nextBatch(this.db, this.userId, this.batchSize);
      if (!entries.length) return;
      trace(pre ? 'push:batch:prefetched' : 'push:batch');
      const body = {
        client_id: clientId,
        mutations: entries.map((e) => ({ id: e.id, name: e.name, args: e.args, client_time: e.client_time })),
      };
      const res = await this.request('/api/sync/push', { method: 'POST', body });
      trace('push:answered');
      if (res.status === 200) {
        const [{ PushResponseSchema }, raw] = await Promise.all([loadValidators(), res.json()]);
        const json = PushResponseSchema.parse(raw);
        if (!json.results.length) throw new TemporaryError('the server applied nothing');
        await markSent(
          this.db,
          clientId,
          json.results.filter((r) => r.status !== 'rejected').map((r) => r.id),
        );
        const rejected = json.results.flatMap((r) => (r.status === 'rejected' ? [{ id: r.id, error: r.error ?? { code: 'rejected', message: 'Refused by the server.' } }] : []));
        for (const r of await dropRejected(this.db, this.userId, clientId, rejected)) this.opts.onRejected?.(r);
        this.batchSize = MAX_PUSH_BATCH;
        continue;
      }
      const err = await errorCode(res);
      if (res.status === 409 && err.code === 'mutation_id_gap' && typeof err.last_mutation_id === 'number') {
        await renumber(this.db, this.userId, clientId, err.last_mutation_id + 1, err.last_mutation_id);
        continue;
      }
      if (res.status === 403 && err.code === 'client_id_taken') {
        await rotateClientId(this.db, this.userId);
        continue;
      }
      if (res.status === 400 || res.status === 413) {
        // The batch as a whole was refused: find the culprit one at a time and drop only it.
        if (entries.length > 1) {
          this.batchSize = 1;
          continue;
        }
        const first = entries[0]!;
        for (const r of await dropRejected(this.db, this.userId, clientId, [{ id: first.id, error: err }])) this.opts.onRejected?.(r);
        // Its id is still free on the server: the next mutation takes it.
        await renumber(this.db, this.userId, clientId, first.id, first.id - 1);
        continue;
      }
      throw new TemporaryError(`push answered ${res.status}`);
    }
  }

  private async pullOnce(): Promise<void> {
    const cursor = (await getMeta<string | null>(this.db, CURSOR_KEY)) ?? null;
    const { client_id } = await runTx(this.db, () => clientState(this.db, this.userId));
    const open = [...this.open.keys()];
    const body = { client_id, cursor, open_videos: open, load_comments: open.filter((id) => !this.loaded.has(id)) };
    const res = await this.request('/api/sync/pull', { method: 'POST', body });
    if (res.status === 400 && (await errorCode(res)).code === 'invalid_cursor') {
      await setMeta(this.db, CURSOR_KEY, null);
      this.needPull = true;
      return;
    }
    if (!res.ok) throw new TemporaryError(`pull answered ${res.status}`);
    const [{ PullResponseSchema }, raw] = await Promise.all([loadValidators(), res.json()]);
    const json: PullResponse = PullResponseSchema.parse(raw);
    trace('pull:parsed');
    const applied = await applyPull(this.db, this.userId, client_id, cursor, json);
    trace('pull:applied');
    if (!applied) {
      this.needPull = true;
      return;
    }
    for (const id of json.comments_loaded) if (this.open.has(id)) this.loaded.add(id);
  }

  /**
   * Applies poke deltas in order; false when one cannot be (a gap, another client id, or comment
   * lists this tab follows, which only a pull with open_videos brings): then the caller pulls.
   */
  private async applyDeltas(deltas: PokeDelta[]): Promise<boolean> {
    if (this.open.size > 0) return false;
    for (const delta of deltas) {
      if ((await applyDelta(this.db, this.userId, delta)) === 'gap') return false;
      trace('delta:applied');
    }
    return true;
  }

  /**
   * A poke: its delta is queued to be applied; without one (or unreadable), a pull is asked for.
   * Before the validators are in, pokes wait for the same promise, whose callbacks run in the
   * order they were added, so they keep their order.
   */
  private onPoke(data: string): void {
    const ready = loadedValidators();
    if (ready) return this.takePoke(ready, data);
    void loadValidators().then(
      (v) => this.takePoke(v, data),
      // Cannot read it without the validators: a pull brings the same rows (and retries the load).
      () => this.requestPull(),
    );
  }

  private takePoke({ PokeMessageSchema }: Validators, data: string): void {
    let delta: PokeDelta | undefined;
    try {
      delta = PokeMessageSchema.parse(JSON.parse(data)).delta;
    } catch {
      delta = undefined;
    }
    if (!delta) return this.requestPull();
    this.deltas.push(delta);
    this.schedule(false, false);
  }

  private listen(): void {
    const w = (globalThis as { window?: Window }).window;
    if (this.opts.browserEvents === false || !w) return;
    const onOnline = () => {
      this.status.set({ online: true });
      this.live?.wake();
      this.schedule(true, true);
    };
    const onOffline = () => this.status.set({ online: false });
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      // A tab the member comes back to takes a live stream again, even one a newer tab replaced.
      this.live?.wake();
      this.schedule(true, true);
    };
    w.addEventListener('online', onOnline);
    w.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    this.cleanups.push(() => {
      w.removeEventListener('online', onOnline);
      w.removeEventListener('offline', onOffline);
      document.removeEventListener('visibilitychange', onVisible);
    });
  }

  /** Follows /api/sync/events: pulls on `ready` (what it missed), applies or pulls on every poke. */
  private followLive(): StreamFollower {
    return followStream({
      open: async (signal) => {
        // The client id lets the stream's deltas confirm this device's own mutations, as pulls do.
        const { client_id } = await runTx(this.db, () => clientState(this.db, this.userId));
        return this.request(`/api/sync/events?client_id=${client_id}`, { method: 'GET' }, signal);
      },
      onEvent: (e) => {
        if (e.event === 'poke') {
          trace('poke');
          this.onPoke(e.data);
        } else if (e.event === 'ready') this.requestPull();
      },
      onLive: (live) => this.status.set({ live }),
    });
  }

}
