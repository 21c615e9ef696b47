import { EventEmitter } from 'node:events';

/**
 * The scope of a poke that concerns everyone and everything: sent to every open stream of an
 * instance whose link to the other instances was down (pokes-postgres.ts), so each catches up.
 */
export const FULL_POKE_SCOPE = 'all';

/**
 * In-process fan-out of "something changed" pokes to live connections (the SSE stream), which
 * answer each with the changed rows or a plain poke. Call notify() only after the transaction
 * that made the change committed.
 */
export interface Pokes {
  /**
   * `scope` is what changed: 'feed', `video:{id}`, `user:{id}`, 'leaderboard', 'settings', or
   * FULL_POKE_SCOPE.
   * `origin` is the user whose action it was, if any: that user's own connections are served
   * after everyone else's (the acting device already shows the change and pulls after its push).
   */
  notify(scopes: string[], origin?: string): void;
  subscribe(listener: (scopes: string[], origin: string | undefined) => void): () => void;
}

/** The pokes of one process: all there is with SQLite; with PostgreSQL, createSharedPokes builds on it. */
export function createPokes(): Pokes {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify(scopes, origin) {
      if (scopes.length) emitter.emit('poke', scopes, origin);
    },
    subscribe(listener) {
      emitter.on('poke', listener);
      return () => emitter.off('poke', listener);
    },
  };
}
