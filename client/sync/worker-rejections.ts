import { getMeta, setMeta, type ClientDb } from './db';
import type { Rejection } from './outbox';
import { runTx } from './tx-queue';

// Changes the server refused while the service worker sent the queue (no page open to say so):
// kept in the meta table until the member's next open shows them (docs/sync.md, "Sync while closed").
const key = (userId: string) => `workerRejections:${userId}`;
/** Kept at most: a member is told about the last ones, not a history. */
const MAX_KEPT = 20;

export async function keepWorkerRejections(db: ClientDb, userId: string, rejections: Rejection[]): Promise<void> {
  await runTx(db, async () => {
    const before = (await getMeta<Rejection[]>(db, key(userId))) ?? [];
    await setMeta(db, key(userId), [...before, ...rejections].slice(-MAX_KEPT));
  });
}

/** Takes out (and forgets) the refusals the worker kept for this user. */
export async function takeWorkerRejections(db: ClientDb, userId: string): Promise<Rejection[]> {
  return runTx(db, async () => {
    const kept = (await getMeta<Rejection[]>(db, key(userId))) ?? [];
    if (kept.length) await db.meta.delete(key(userId));
    return kept;
  });
}
