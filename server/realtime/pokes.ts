import { EventEmitter } from 'node:events';

/**
 * In-process fan-out of "something changed" pokes to live connections (the SSE stream). A poke
 * carries no data: clients pull. Call notify() only after the transaction that made the change
 * committed.
 */
export interface Pokes {
  /** `scope` is what changed: 'feed', `video:{id}`, `user:{id}`, 'leaderboard', 'settings'. */
  notify(scopes: string[]): void;
  subscribe(listener: (scopes: string[]) => void): () => void;
}

export function createPokes(): Pokes {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify(scopes) {
      if (scopes.length) emitter.emit('poke', scopes);
    },
    subscribe(listener) {
      emitter.on('poke', listener);
      return () => emitter.off('poke', listener);
    },
  };
}
