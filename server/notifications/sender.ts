import { Agent } from 'node:https';
import type { AppDeps } from '../context';
import { NOTIFICATION_PREF_OF, type NotificationKind } from '#sync/protocol/notifications';
import { pushPayloadOf } from './payload';
import { liveSubscriptionsOf, readPrefs, type LiveSubscription } from './subscriptions';
import { vapidKeysOf, vapidSubject } from './vapid-keys';
import { setLikeBatchMs } from './like-batch';
import { onPushDue } from './wake';
import { checkEndpoint, endpointPolicy, type EndpointPolicy } from './endpoint-check';
import { publicOnlyLookup, type LookupFunction } from './special-addresses';
import { postPush, type Connection, type PushMessage } from './push-request';
import { FairPool } from './send-pool';
import { claimDue, newestPerCommenter } from './due-rows';

type SenderDeps = Pick<AppDeps, 'db' | 'secrets' | 'config' | 'log' | 'now'>;

/** How long a push service keeps a message for an offline device (seconds): a day-old "liked your video" is still worth it. */
const TTL_SECONDS = 24 * 60 * 60;
/** Rows claimed per look; it looks again at once while it finds a full batch. */
const BATCH = 100;
/** One send's budget, lookup to answer: a push service answers in well under a second; a slower endpoint is given up on. */
export const SEND_BUDGET_MS = 5_000;
/** A send still waiting for the pool this long after its notification was claimed is dropped (the notification stays in the list). */
export const ROUND_DEADLINE_MS = 30_000;
/** Sends at a time, and of those at most this many for one member (send-pool.ts). */
const POOL_SIZE = 16;
const PER_MEMBER = 4;

export interface PushSender {
  /** One round: claims what is due now and sends it; settles when those sends have. Answers how many notifications it claimed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export interface SenderOptions {
  tickMs?: number;
  /** The name lookup under the public-address check (dns.lookup); tests give one that answers loopback names only. */
  resolve?: LookupFunction;
}

interface Sending {
  deps: SenderDeps;
  policy: EndpointPolicy;
  pool: FairPool;
  connection: Omit<Connection, 'signal'>;
  stopped: AbortSignal;
}

interface Round {
  claimed: number;
  done: Promise<unknown>;
}

/**
 * Sends the notifications whose push is due (docs/notifications.md). Every instance runs one: a row
 * is claimed by a compare-and-set on its push_due_at, so two instances never send it twice. Looks
 * every `tickMs` and at once after a commit that made a push due now (wake.ts); a look only claims
 * and hands the sends to the pool, so the next look never waits for a slow endpoint. Never throws
 * into what caused the notification: failures are logged, and a message that failed is not retried.
 */
export function startPushSender(deps: SenderDeps, options: SenderOptions = {}): PushSender {
  setLikeBatchMs(deps.config.push.likeBatchMs);
  const policy = endpointPolicy(deps.config.push);
  const stopping = new AbortController();
  // The local push service of the tests is on loopback and trusted through https' global agent.
  const connection = policy.allowInsecure
    ? { agent: undefined, lookup: undefined }
    : { agent: new Agent({ keepAlive: true }), lookup: publicOnlyLookup(options.resolve) };
  const sending: Sending = { deps, policy, pool: new FairPool(POOL_SIZE, PER_MEMBER), connection, stopped: stopping.signal };
  const inflight = new Set<Promise<unknown>>();
  let running: Promise<Round> | undefined;
  let again = false;

  const round = async (): Promise<Round> => {
    let claimed = 0;
    const sends: Promise<void>[] = [];
    do {
      again = false;
      const { found, rows } = await claimDue(deps, BATCH);
      claimed += rows.length;
      sends.push(...(await dispatch(sending, newestPerCommenter(rows))));
      if (found >= BATCH) again = true;
    } while (again && !stopping.signal.aborted);
    const done = Promise.all(sends);
    inflight.add(done);
    void done.finally(() => inflight.delete(done));
    return { claimed, done };
  };
  const kick = (): Promise<Round> => {
    if (running) {
      again = true;
      return running;
    }
    running = round()
      .catch((err: unknown): Round => {
        deps.log.error('push sender round failed', err);
        return { claimed: 0, done: Promise.resolve() };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void kick(), options.tickMs ?? 1000);
  timer.unref();
  const unlisten = onPushDue(() => void kick());
  return {
    runOnce: async () => {
      const r = await kick();
      // A round a commit's wake-up started just before may hold the sends this look expects: wait for those too.
      await Promise.all([r.done, ...inflight]);
      return r.claimed;
    },
    stop: async () => {
      clearInterval(timer);
      unlisten();
      stopping.abort();
      await running;
      await Promise.all(inflight);
      connection.agent?.destroy();
    },
  };
}

/** Prepares each claimed notification and hands its sends to the pool; answers the sends, not awaited. */
async function dispatch(s: Sending, ids: string[]): Promise<Promise<void>[]> {
  if (!ids.length) return [];
  const notAfter = Date.now() + ROUND_DEADLINE_MS;
  const keys = await vapidKeysOf(s.deps.db, s.deps.secrets, s.deps.now);
  const vapid = { subject: vapidSubject(s.deps.config.mailFrom, s.deps.config.publicUrl), publicKey: keys.publicKey, privateKey: keys.privateKey };
  const sends: Promise<void>[] = [];
  for (const id of ids) {
    try {
      const prepared = await prepare(s.deps, id);
      if (!prepared) continue;
      const { userId, subs, message } = prepared;
      for (const sub of subs)
        sends.push(
          s.pool.run(userId, () => sendTo(s, sub, { ...message, vapid, subscription: sub }, notAfter)).catch((err: unknown) => logFailure(s.deps, sub, err)),
        );
    } catch (err) {
      s.deps.log.error(`push of notification ${id} failed`, err);
    }
  }
  return sends;
}

const NORMAL_URGENCY: ReadonlySet<string> = new Set<NotificationKind>(['likes', 'comment_likes', 'follow']);

/** The notification's payload and where it goes: the owner's devices of open sessions, when the owner wants this kind. */
async function prepare(
  deps: SenderDeps,
  id: string,
): Promise<{ userId: string; subs: LiveSubscription[]; message: Pick<PushMessage, 'body' | 'ttlSeconds' | 'urgency'> } | undefined> {
  const found = await pushPayloadOf(deps.db, id);
  if (!found) return undefined;
  const { userId, payload } = found;
  const prefs = await readPrefs(deps.db, userId);
  if (!prefs[NOTIFICATION_PREF_OF[payload.notification.kind as NotificationKind]]) return undefined;
  const subs = await liveSubscriptionsOf(deps.db, userId, deps.now());
  if (!subs.length) return undefined;
  // A like (of a video or a comment) or a new follower can wait for the device's next wake-up; words to the member, a video's state, a prize not.
  const urgency = NORMAL_URGENCY.has(payload.notification.kind) ? 'normal' : 'high';
  return { userId, subs, message: { body: JSON.stringify(payload), ttlSeconds: TTL_SECONDS, urgency } };
}

/** One message to one device, within its budget and the round's deadline; 404/410 (RFC 8030 section 7.3: gone) removes the subscription. */
async function sendTo(s: Sending, sub: LiveSubscription, message: PushMessage, notAfter: number): Promise<void> {
  const budget = Math.min(SEND_BUDGET_MS, notAfter - Date.now());
  if (budget <= 0 || s.stopped.aborted) {
    s.deps.log.error(`push to subscription ${sub.id} dropped: ${s.stopped.aborted ? 'the sender stopped' : 'its turn came after the deadline'}`);
    return;
  }
  const verdict = checkEndpoint(sub.endpoint, s.policy);
  if (!verdict.ok) {
    s.deps.log.error(`push to subscription ${sub.id} not sent: ${verdict.problem}`);
    return;
  }
  const answer = await withinBudget(budget, s.stopped, (signal) => postPush(verdict.target, message, { ...s.connection, signal }));
  if (answer.status === 404 || answer.status === 410) {
    await s.deps.db.deleteFrom('push_subscriptions').where('id', '=', sub.id).where('endpoint', '=', sub.endpoint).execute();
    s.deps.log.info(`push subscription ${sub.id} is gone (${answer.status}): removed`);
  } else if (answer.status < 200 || answer.status > 299) {
    s.deps.log.error(`push to subscription ${sub.id} failed (${answer.status})`, answer.body);
  }
}

/**
 * Runs `send` with a signal that aborts when the sender stops or `ms` have passed. The budget is a
 * timer of our own rather than AbortSignal.timeout: inside AbortSignal.any, Node 20 may collect the
 * timeout's signal before it fires (only the combined signal refers to it, weakly), and the send was
 * then never given up: a tarpit endpoint held its socket and its slot in the pool (seen in
 * tests/integration/web-push-tarpit.test.ts under load).
 */
async function withinBudget<T>(ms: number, stopped: AbortSignal, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  try {
    return await send(AbortSignal.any([budget.signal, stopped]));
  } finally {
    clearTimeout(timer);
  }
}

function logFailure(deps: SenderDeps, sub: { id: string }, err: unknown): void {
  deps.log.error(`push to subscription ${sub.id} failed`, err instanceof Error ? `${err.name}: ${err.message}` : err);
}
