import { Agent } from 'node:https';
import webpush, { WebPushError } from 'web-push';
import type { AppDeps } from '../context';
import { NOTIFICATION_PREF_OF, type NotificationKind } from '#sync/protocol/notifications';
import { pushPayloadOf } from './payload';
import { readPrefs } from './subscriptions';
import { vapidKeysOf, vapidSubject } from './vapid-keys';
import { setLikeBatchMs } from './like-batch';
import { onPushDue } from './wake';
import { publicOnlyLookup } from './endpoint-check';

type SenderDeps = Pick<AppDeps, 'db' | 'secrets' | 'config' | 'log' | 'now'>;

/** How long a push service keeps a message for an offline device (seconds): a day-old "liked your video" is still worth it. */
const TTL_SECONDS = 24 * 60 * 60;
/** Rows claimed per round; a round runs again at once while it finds a full batch. */
const BATCH = 100;
/** A push service that does not answer in this long is given up on for this message. */
const SEND_TIMEOUT_MS = 10_000;

export interface PushSender {
  /** One round: claims what is due now and sends it. Answers how many notifications it claimed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Sends the notifications whose push is due (docs/notifications.md). Every instance runs one: a row
 * is claimed by a compare-and-set on its push_due_at, so two instances never send it twice. Runs
 * every `tickMs` and at once after a commit that made a push due now (wake.ts). Never throws into
 * what caused the notification: failures are logged, and a message that failed is not retried.
 */
export function startPushSender(deps: SenderDeps, options: { tickMs?: number } = {}): PushSender {
  setLikeBatchMs(deps.config.push.likeBatchMs);
  // Connects only to public addresses, whatever the endpoint's name resolves to (SSRF); a local
  // push service in tests goes through the default agent.
  const agent = deps.config.push.allowInsecureEndpoints ? undefined : new Agent({ keepAlive: true, lookup: publicOnlyLookup });
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  const round = async (): Promise<number> => {
    let claimed = 0;
    do {
      again = false;
      const n = await sendDue(deps, agent);
      claimed += n;
      if (n >= BATCH) again = true;
    } while (again && !stopped);
    return claimed;
  };
  const kick = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = round()
      .catch((err: unknown) => {
        deps.log.error('push sender round failed', err);
        return 0;
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
    runOnce: kick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      unlisten();
      await running;
      agent?.destroy();
    },
  };
}

/** Claims the rows due now, one compare-and-set each, and sends each claimed one. */
async function sendDue(deps: SenderDeps, agent: Agent | undefined): Promise<number> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('notifications')
    .select(['id', 'push_due_at'])
    .where('push_due_at', '<=', now)
    .orderBy('push_due_at')
    .limit(BATCH)
    .execute();
  let claimed = 0;
  for (const row of due) {
    const r = await deps.db
      .updateTable('notifications')
      .set({ push_due_at: null })
      .where('id', '=', row.id)
      .where('push_due_at', '=', row.push_due_at)
      .executeTakeFirst();
    // Another instance (or a newer like that moved it) got there first.
    if (!Number(r.numUpdatedRows)) continue;
    claimed++;
    try {
      await sendOne(deps, row.id, agent);
    } catch (err) {
      deps.log.error(`push of notification ${row.id} failed`, err);
    }
  }
  return claimed;
}

async function sendOne(deps: SenderDeps, id: string, agent: Agent | undefined): Promise<void> {
  const found = await pushPayloadOf(deps.db, id);
  if (!found) return;
  const { userId, payload } = found;
  const prefs = await readPrefs(deps.db, userId);
  if (!prefs[NOTIFICATION_PREF_OF[payload.notification.kind as NotificationKind]]) return;
  const subs = await deps.db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).execute();
  if (!subs.length) return;
  const keys = await vapidKeysOf(deps.db, deps.secrets, deps.now);
  const vapidDetails = { subject: vapidSubject(deps.config.mailFrom, deps.config.publicUrl), publicKey: keys.publicKey, privateKey: keys.privateKey };
  const body = JSON.stringify(payload);
  await Promise.all(
    subs.map(async (s) => {
      try {
        await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, body, {
          vapidDetails,
          TTL: TTL_SECONDS,
          urgency: payload.notification.kind === 'likes' ? 'normal' : 'high',
          contentEncoding: 'aes128gcm',
          timeout: SEND_TIMEOUT_MS,
          ...(agent ? { agent } : {}),
        });
      } catch (err) {
        await onSendError(deps, s, err);
      }
    }),
  );
}

/** 404/410: the device unsubscribed or the subscription expired (RFC 8030 section 7.3): it goes. Anything else is logged. */
async function onSendError(deps: SenderDeps, sub: { id: string; endpoint: string }, err: unknown): Promise<void> {
  if (err instanceof WebPushError && (err.statusCode === 404 || err.statusCode === 410)) {
    await deps.db.deleteFrom('push_subscriptions').where('id', '=', sub.id).where('endpoint', '=', sub.endpoint).execute();
    deps.log.info(`push subscription ${sub.id} is gone (${err.statusCode}): removed`);
    return;
  }
  const status = err instanceof WebPushError ? ` (${err.statusCode})` : '';
  deps.log.error(`push to subscription ${sub.id} failed${status}`, err instanceof Error ? err.message : err);
}
