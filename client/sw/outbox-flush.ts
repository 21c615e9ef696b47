import { DEFAULT_DB_NAME, getMeta, openClientDb, type ClientDb } from '../sync/db';
import { withSyncLock } from '../sync/flush-lock';
import { Pusher } from '../sync/pusher';
import { readPushAnswer } from '../sync/push-answer';
import { SyncTransport } from '../sync/sync-transport';
import { keepWorkerRejections } from '../sync/worker-rejections';
import type { Rejection } from '../sync/outbox';
import { refreshInWorker, type WorkerSession } from './worker-session';

/** How a flush ended; a failure throws instead (the browser retries the sync). */
export type FlushOutcome = 'empty' | 'signed_out' | 'sent';

const hasPending = async (db: ClientDb, userId: string | undefined) =>
  userId !== undefined && (await db.outbox.where('[user_id+status]').equals([userId, 'pending']).count()) > 0;

/**
 * Sends the outbox from the service worker (docs/sync.md, "Sync while closed") exactly as a page's
 * engine would: the same Dexie database, client id and mutation ids, the same Pusher, under the same
 * flush lock, so a page and the worker never push at once. It does not pull: sent entries wait
 * for the next open's pull, as on the page.
 */
export async function flushOutbox(dbName = DEFAULT_DB_NAME): Promise<FlushOutcome> {
  const db = openClientDb(dbName);
  try {
    return await withSyncLock(db.name, async () => {
      // Nothing of the member last signed in here waits (a page sent it, or only another member's
      // queue is left): then no refresh is spent and the refresh token is not rotated for nothing.
      if (!(await hasPending(db, await getMeta<string>(db, 'owner')))) return 'empty';
      const session = await refreshInWorker();
      // Signed out: the queue stays, tagged with its user, for the next sign-in.
      if (!session) return 'signed_out';
      if (!(await hasPending(db, session.userId))) return 'empty';
      await pushAs(db, session);
      return 'sent';
    });
  } finally {
    db.close();
  }
}

async function pushAs(db: ClientDb, session: WorkerSession): Promise<void> {
  let token = session.token;
  const transport = new SyncTransport({
    userId: session.userId,
    getAccessToken: () => token,
    // A 401 mid-flush (the token was revoked) refreshes once more, under the same lock as always.
    refreshSession: async () => {
      const again = await refreshInWorker();
      if (again?.userId === session.userId) token = again.token;
      return again?.token ?? null;
    },
  });
  const rejected: Rejection[] = [];
  const pusher = new Pusher(db, session.userId, transport.request, readPushAnswer, (r) => rejected.push(r));
  try {
    await pusher.holding(() => pusher.push());
  } finally {
    // Rolled back here already; the next open tells the member why (no page is open to show it).
    if (rejected.length) await keepWorkerRejections(db, session.userId, rejected);
  }
}
