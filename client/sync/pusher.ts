import { MAX_PUSH_BATCH } from '#sync/protocol/limits';
import type { ClientDb, OutboxEntry } from './db';
import type { PushResponse } from '#sync/protocol/messages';
import { batchOf, dropRejected, markSent, nextBatch, pendingOf, renumber, rotateClientId, type Rejection } from './outbox';
import { TemporaryError, type Requester } from './sync-transport';
import { apiErrorFromResponse } from '../lib/http/api-error';
import { trace } from './trace';
import { runTx } from './tx-queue';

type Batch = { clientId: string; entries: OutboxEntry[] };

/**
 * Reads a 200 push answer, refusing one of the wrong shape (throws). The page passes its zod
 * schema (loaded lazily); the service worker a small check of its own, so its bundle has no zod.
 */
export type PushAnswerReader = (raw: unknown) => PushResponse | Promise<PushResponse>;

/**
 * Sends the outbox, in order, in batches, and answers the server's refusals: a gap renumbers, a
 * taken client id rotates, a refused batch is narrowed to its culprit, which alone is dropped.
 */
export class Pusher {
  /** Local writes in flight: a push waits for them (under the lock) so it carries what they queue. */
  private readonly writes = new Set<Promise<OutboxEntry>>();
  /** Which hold of the flush lock is running (0: none): a batch read during it is valid for it. */
  private lockEpoch = 0;
  private epochs = 0;
  /** The queue as a local write saw it while this engine held the lock: the next push's batch. */
  private prefetched: { epoch: number; clientId: string; pending: OutboxEntry[] } | null = null;
  private batchSize = MAX_PUSH_BATCH;

  constructor(
    private readonly db: ClientDb,
    private readonly userId: string,
    private readonly request: Requester,
    private readonly readAnswer: PushAnswerReader,
    private readonly onRejected?: (rejection: Rejection) => void,
  ) {}

  /**
   * Runs a local write (queue + optimistic rows, one transaction), tracked so that a push waits for
   * it. The caller starts the flush right after: the flush lock is acquired while the write is in
   * flight, so the click pays for the slower of the two, not for both.
   */
  write(write: () => Promise<OutboxEntry>): Promise<OutboxEntry> {
    let seen: Pusher['prefetched'] = null;
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
    return done;
  }

  /** Runs fn as one hold of the flush lock (the caller holds it). */
  async holding<T>(fn: () => Promise<T>): Promise<T> {
    this.lockEpoch = ++this.epochs;
    try {
      return await fn();
    } finally {
      this.lockEpoch = 0;
      this.prefetched = null;
    }
  }

  /** Waits for the local writes in flight, then pushes until the outbox is empty. */
  async push(): Promise<void> {
    if (this.writes.size) await Promise.allSettled([...this.writes]);
    // Bounded: each round either empties a batch or changes ids; a loop would be a bug, not a queue.
    for (let round = 0; round < 10_000; round++) {
      const batch = await this.batch(round);
      if (!batch.entries.length) return;
      const res = await this.request('/api/sync/push', { method: 'POST', body: pushBody(batch) });
      trace('push:answered');
      if (res.status === 200) await this.accepted(batch.clientId, res);
      else await this.refused(batch, res);
    }
  }

  private async batch(round: number): Promise<Batch> {
    const pre = round === 0 && this.prefetched?.epoch === this.lockEpoch ? this.prefetched : null;
    this.prefetched = null;
    const batch = pre
      ? { clientId: pre.clientId, entries: batchOf(pre.pending, pre.clientId, this.batchSize) }
      : await nextBatch(this.db, this.userId, this.batchSize);
    if (batch.entries.length) trace(pre ? 'push:batch:prefetched' : 'push:batch');
    return batch;
  }

  private async accepted(clientId: string, res: Response): Promise<void> {
    const json = await this.readAnswer(await res.json());
    if (!json.results.length) throw new TemporaryError('the server applied nothing');
    await markSent(
      this.db,
      clientId,
      json.results.filter((r) => r.status !== 'rejected').map((r) => r.id),
    );
    const rejected = json.results.flatMap((r) => (r.status === 'rejected' ? [{ id: r.id, error: r.error ?? { code: 'rejected', message: '' } }] : []));
    await this.drop(clientId, rejected);
    this.batchSize = MAX_PUSH_BATCH;
  }

  private async refused({ clientId, entries }: Batch, res: Response): Promise<void> {
    const err = await apiErrorFromResponse(res);
    const last = err.details.lastMutationId;
    if (res.status === 409 && err.code === 'mutation_id_gap' && typeof last === 'number') {
      return renumber(this.db, this.userId, clientId, last + 1, last);
    }
    if (res.status === 403 && err.code === 'client_id_taken') return rotateClientId(this.db, this.userId);
    if (res.status !== 400 && res.status !== 413) throw new TemporaryError(`push answered ${res.status}`);
    // The batch as a whole was refused: find the culprit one at a time and drop only it.
    if (entries.length > 1) {
      this.batchSize = 1;
      return;
    }
    const first = entries[0]!;
    await this.drop(clientId, [{ id: first.id, error: { code: err.code, message: err.message } }]);
    // Its id is still free on the server: the next mutation takes it.
    await renumber(this.db, this.userId, clientId, first.id, first.id - 1);
  }

  private async drop(clientId: string, rejected: Parameters<typeof dropRejected>[3]): Promise<void> {
    for (const r of await dropRejected(this.db, this.userId, clientId, rejected)) this.onRejected?.(r);
  }
}

function pushBody({ clientId, entries }: Batch) {
  return {
    client_id: clientId,
    mutations: entries.map((e) => ({ id: e.id, name: e.name, args: e.args, client_time: e.client_time })),
  };
}
