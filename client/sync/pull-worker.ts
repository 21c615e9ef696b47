import type { ClientDb } from './db';
import { loadedValidators, loadValidators } from './load-validators';
import { applyPullAnswer, type PullAsk, type PullOutcome } from './pull-answer';

export interface PullWorkerAsk {
  id: number;
  dbName: string;
  ask: PullAsk;
}
export type PullWorkerReply = { id: number; ok: true; outcome: PullOutcome } | { id: number; ok: false; message: string };

/** The worker could not run (not fetched offline, refused): the answer is applied here instead. */
class WorkerUnavailable extends Error {}

/** An answer the worker could not apply (it does not validate, a write failed): the round fails and is retried. */
class PullApplyError extends Error {
  override name = 'PullApplyError';
}

export interface PullApplier {
  apply(ask: PullAsk): Promise<PullOutcome>;
  /** Ends the worker (the engine stopped); a later pull starts another. */
  close(): void;
}

/**
 * Applies pull answers in a worker where the browser has workers, and on the page where it has
 * none (the unit tests' Node) or the worker fails to start. One answer at a time: the puller awaits
 * each, under the sync lock, as before. The worker starts at once, so its script is in by the
 * first answer.
 */
export function createPullApplier(db: ClientDb): PullApplier {
  let worker: Worker | null = null;
  let broken = typeof Worker === 'undefined';
  let nextId = 0;
  const waiting = new Map<number, { resolve(o: PullOutcome): void; reject(e: Error): void }>();

  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const start = (): Worker => {
    const w = new Worker(new URL('./pull.worker.ts', import.meta.url), { type: 'module', name: 'pulls' });
    w.onmessage = ({ data }: MessageEvent<PullWorkerReply>) => {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.ok) pending?.resolve(data.outcome);
      else pending?.reject(new PullApplyError(data.message));
    };
    w.onerror = (e) => {
      e.preventDefault();
      broken = true;
      end(new WorkerUnavailable(e.message || 'The pull worker failed to start.'));
    };
    return w;
  };
  const inWorker = (ask: PullAsk) =>
    new Promise<PullOutcome>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      worker ??= start();
      worker.postMessage({ id, dbName: db.name, ask } satisfies PullWorkerAsk);
    });
  const onPage = async (ask: PullAsk) => {
    const { PullResponseSchema } = loadedValidators() ?? (await loadValidators());
    return applyPullAnswer(db, ask, (raw) => PullResponseSchema.parse(raw));
  };
  function end(reason: Error): void {
    worker?.terminate();
    worker = null;
    failAll(reason);
  }

  if (!broken) worker = start();
  return {
    async apply(ask) {
      if (!broken) {
        try {
          return await inWorker(ask);
        } catch (err) {
          if (!(err instanceof WorkerUnavailable)) throw err;
        }
      }
      return onPage(ask);
    },
    // An answer cut off here was not committed (IndexedDB aborts a transaction whose realm ends): the round fails and is retried.
    close: () => end(new PullApplyError('The pull worker was ended.')),
  };
}
