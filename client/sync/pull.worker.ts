// Before any schema is defined: zod must not probe eval against the policy (zod-jitless.ts).
import './zod-jitless';
import { openClientDb, type ClientDb } from './db';
import { PullResponseSchema } from './validators';
import { applyPullAnswer } from './pull-answer';
import type { PullWorkerAsk, PullWorkerReply } from './pull-worker';

// Pull answers are parsed, validated and written here, off the page's main thread: on a slow phone
// zod's start-up and each page of the feed window were long tasks while the member looked at the
// first cards (docs/decisions/0032-pulls-applied-in-a-worker.md). Dexie tells the page's watchers
// of the writes through its BroadcastChannel, as it does for another tab's.

// Typed loosely: the project's DOM lib and the WebWorker lib cannot share one TypeScript program (client/sw/sw.ts).
interface WorkerScope {
  postMessage(message: PullWorkerReply): void;
  onmessage: ((event: MessageEvent<PullWorkerAsk>) => void) | null;
}
const scope = self as unknown as WorkerScope;
const dbs = new Map<string, ClientDb>();

scope.onmessage = ({ data }) => {
  let db = dbs.get(data.dbName);
  if (!db) dbs.set(data.dbName, (db = openClientDb(data.dbName)));
  applyPullAnswer(db, data.ask, (raw) => PullResponseSchema.parse(raw)).then(
    (outcome) => scope.postMessage({ id: data.id, ok: true, outcome }),
    (err: unknown) => scope.postMessage({ id: data.id, ok: false, message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }),
  );
};
