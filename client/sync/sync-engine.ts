import type { MutationArgs, MutationName } from '#sync/mutations/catalogue';
import { loadValidators, loadedValidators, preloadValidators } from './load-validators';
import type { ClientDb, OutboxEntry } from './db';
import { resetCacheFor } from './apply-pull';
import { runTx } from './tx-queue';
import { clientState, enqueueInTx, type Rejection } from './outbox';
import { rebase } from './rebase';
import { withSyncLock } from './flush-lock';
import { followStream, type StreamFollower } from './events-stream';
import { createStatusStore, type StatusStore } from './status';
import { trace } from './trace';
import { RetryLoop, type RetryPlan } from './retry-loop';
import { PausedError, RateLimitedError, SyncTransport, TemporaryError, type TransportOptions } from './sync-transport';
import { Pusher } from './pusher';
import { Puller } from './puller';
import { loadOlderPage } from './older-page';
import { listenToBrowser } from './browser-events';
import { requestBackgroundSync } from './background-sync-request';
import { takeWorkerRejections } from './worker-rejections';
import { requestPersistentStorage } from '../lib/session/persist-storage';

export { RETRY_CAP_MS, RETRY_STEP_MS } from './retry-loop';
export { REQUEST_TIMEOUT_MS } from './sync-transport';
export { PAGE_SIZE } from './older-page';
/** How often a quiet engine checks for a queue left by a closed tab, or pulls without a live stream. */
export const PERIODIC_MS = 30_000;

function isOnline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;
}

export interface SyncOptions extends TransportOptions {
  /** A queued mutation the server refused for good: it was rolled back; tell the user why. */
  onRejected?: (rejection: Rejection) => void;
  db: ClientDb;
  /** Follow /api/sync/events for live pokes (default true). */
  live?: boolean;
  /** Listen to window online/visibility events (default: when a window exists). */
  browserEvents?: boolean;
}

/**
 * The sync engine of one user on one device (one per tab): pushes the outbox, pulls changes,
 * follows the live stream, and keeps retrying until everything is through. It composes the
 * transport, the pusher, the puller and the retry loop; each round holds the flush lock.
 */
export class SyncEngine {
  readonly db: ClientDb;
  readonly userId: string;
  readonly status: StatusStore;
  private readonly opts: SyncOptions;
  private readonly transport: SyncTransport;
  private readonly pusher: Pusher;
  private readonly puller: Puller;
  private readonly loop: RetryLoop;
  private needPush = false;
  private needPull = false;
  private stopped = false;
  private started: Promise<void> | null = null;
  private live: StreamFollower | null = null;
  private readonly cleanups: Array<() => void> = [];

  constructor(opts: SyncOptions) {
    this.opts = opts;
    this.db = opts.db;
    this.userId = opts.userId;
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    this.status = createStatusStore({ online: nav?.onLine ?? true, syncing: false, paused: null, live: false, failing: false });
    this.transport = new SyncTransport(opts);
    this.pusher = new Pusher(
      this.db,
      this.userId,
      this.transport.request,
      async (raw) => (await loadValidators()).PushResponseSchema.parse(raw),
      opts.onRejected,
    );
    this.puller = new Puller(this.db, this.userId, this.transport.request);
    this.loop = new RetryLoop({
      round: () => this.round(),
      hasWork: () => this.needPush || this.needPull || this.puller.hasDeltas,
      onFailure: (err) => this.failed(err),
      onBusy: () => trace('drain'),
      onIdle: () => this.status.set({ syncing: false }),
    });
  }

  /** Flushes on start, then on every trigger; safe to call once. */
  start(): Promise<void> {
    this.started ??= (async () => {
      // Pull answers are validated in the pull worker; this page needs zod for a tap's mutation, a
      // push's answer or a poke (a validation before it is in awaits the same load).
      this.cleanups.push(preloadValidators());
      await resetCacheFor(this.db, this.userId);
      await runTx(this.db, () => rebase(this.db, this.userId));
      await this.tellWorkerRejections();
      if (this.opts.browserEvents !== false) this.cleanups.push(listenToBrowser({ status: this.status, wake: () => this.wake() }));
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
    const idle = this.loop.stop();
    this.live?.stop();
    for (const c of this.cleanups.splice(0)) c();
    await idle;
    this.puller.close();
  }

  /** Queues a mutation (shown at once) and starts sending it. Invalid args throw a MutationError. */
  async mutate<N extends MutationName>(name: N, args: MutationArgs<N>): Promise<OutboxEntry> {
    const { parseMutation } = loadedValidators() ?? (await loadValidators());
    const parsed = parseMutation(name, args);
    if (!parsed.ok) throw parsed.error;
    return this.queueLocal(() => enqueueInTx(this.db, this.userId, parsed.mutation));
  }

  /** A local write and the flush that sends it start together: the click pays for the slower of the two. */
  private async queueLocal(write: () => Promise<OutboxEntry>): Promise<OutboxEntry> {
    const done = this.pusher.write(write);
    this.schedule(true, true);
    const entry = await done;
    trace('enqueued');
    if (!this.status.get().online || !isOnline()) {
      // Kept offline for later: if every page closes meanwhile, the service worker sends it when the
      // network returns (docs/sync.md), and the browser is asked not to evict it (docs/pwa.md).
      requestBackgroundSync();
      requestPersistentStorage();
    }
    return entry;
  }

  /** Push then pull now; resolves when the engine is idle again. True if the last round succeeded. */
  async sync(): Promise<boolean> {
    this.schedule(true, true);
    return this.loop.idle();
  }

  /** Asks for a pull (e.g. after a poke); coalesced with any running round. */
  requestPull(): void {
    this.schedule(false, true);
  }

  /** Pulls a video's comments in full, then their changes, until the returned function is called. */
  followComments(videoId: string): () => void {
    const { load, close } = this.puller.openComments(videoId);
    if (load) this.schedule(false, true);
    return close;
  }

  /** Fetches the page below the oldest cached video. Resolves false when there is nothing more. */
  pullOlder(): Promise<boolean> {
    return loadOlderPage(this.db, this.userId, this.transport.request);
  }

  /** Changes the server refused while the service worker sent the queue: told here, once. */
  private async tellWorkerRejections(): Promise<void> {
    for (const r of await takeWorkerRejections(this.db, this.userId)) this.opts.onRejected?.(r);
  }

  private async periodic(): Promise<void> {
    if (this.stopped || this.loop.busy) return;
    const waiting = await this.db.outbox
      .where('user_id')
      .equals(this.userId)
      .filter((e) => e.status === 'pending')
      .count();
    if (waiting > 0 || !this.status.get().live) this.schedule(waiting > 0, true);
  }

  /** The network is back or the tab is visible again: reconnect the stream and send now. */
  private wake(): void {
    this.live?.wake();
    this.schedule(true, true);
  }

  private schedule(push: boolean, pull: boolean): void {
    if (this.stopped) return;
    if (push) this.needPush = true;
    if (pull) this.needPull = true;
    this.loop.wake();
  }

  /** One round under the flush lock: push what is queued, then pull (or apply the pokes' deltas). */
  private async round(): Promise<void> {
    const doPush = this.needPush;
    const doPull = this.needPull || this.needPush;
    // A pull covers every delta that arrived before it: those are dropped unread.
    const deltas = this.puller.takeDeltas();
    this.needPush = false;
    this.needPull = false;
    this.status.set({ syncing: true });
    try {
      await withSyncLock(this.db.name, () =>
        this.pusher.holding(async () => {
          trace('locked');
          if (doPush) await this.pusher.push();
          if (doPull || (deltas.length > 0 && !(await this.puller.applyDeltas(deltas)))) await this.pull();
        }),
      );
      this.status.set({ online: true, paused: null, failing: false });
      // The worker may have won the lock when the network returned and sent the queue itself.
      if (doPush) await this.tellWorkerRejections();
    } catch (err) {
      // Nothing is dropped: the work of a failed round is done by the next one.
      this.needPush ||= doPush;
      this.needPull ||= doPull || deltas.length > 0;
      throw err;
    }
  }

  private async pull(): Promise<void> {
    if (await this.puller.pull()) this.needPull = true;
  }

  private failed(err: unknown): RetryPlan {
    if (err instanceof PausedError) {
      // Waits for the next trigger (sign-in again, online, a new action): nothing is dropped.
      this.status.set({ paused: err.reason, online: true });
      return 'wake';
    }
    const offline = err instanceof TemporaryError && err.offline;
    const limited = err instanceof RateLimitedError;
    // Not sent for now (no network, or the server unavailable): the worker may send it after the app closes.
    if (err instanceof TemporaryError) requestBackgroundSync();
    // Being asked to wait is not a failure to report.
    this.status.set({ online: !offline, failing: !offline && !limited });
    return limited ? { holdMs: err.waitMs } : 'backoff';
  }

  /** Follows /api/sync/events: pulls on `ready` (what it missed), applies or pulls on every poke. */
  private followLive(): StreamFollower {
    return followStream({
      open: async (signal) => {
        // The client id lets the stream's deltas confirm this device's own mutations, as pulls do.
        const { client_id } = await runTx(this.db, () => clientState(this.db, this.userId));
        return this.transport.request(`/api/sync/events?client_id=${client_id}`, { method: 'GET' }, signal);
      },
      onEvent: (e) => {
        if (e.event === 'poke') {
          trace('poke');
          this.puller.onPoke(
            e.data,
            () => this.schedule(false, false),
            () => this.requestPull(),
          );
        } else if (e.event === 'ready') this.requestPull();
      },
      onLive: (live) => this.status.set({ live }),
    });
  }
}
