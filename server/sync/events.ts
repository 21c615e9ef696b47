import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import type { PokeMessage } from '../../sync/protocol/messages';

/** A comment line this often keeps proxies and the client's reader from timing out (spec: 25 s). */
export const HEARTBEAT_MS = 25_000;

/** Whether a poke concerns this user: `user:X` scopes go to X only; everything else to everyone. */
function relevant(scope: string, userId: string): boolean {
  return !scope.startsWith('user:') || scope === `user:${userId}`;
}

/**
 * The live-update stream: one `poke` event (type 'pull' plus the scopes, no data) whenever something
 * a client may hold changed. The client answers by pulling.
 */
export function pokeStream(c: Context<AppEnv>) {
  const { deps, user } = c.var;
  return streamSSE(c, async (stream) => {
    let pending: Set<string> | null = null;
    const unsubscribe = deps.pokes.subscribe((scopes) => {
      const mine = scopes.filter((s) => relevant(s, user.id));
      if (!mine.length) return;
      // Pokes that arrive while one is being written are coalesced into the next event.
      if (pending) {
        for (const s of mine) pending.add(s);
        return;
      }
      pending = new Set(mine);
      queueMicrotask(() => {
        const msg: PokeMessage = { type: 'pull', scopes: [...(pending ?? [])] };
        pending = null;
        void stream.writeSSE({ event: 'poke', data: JSON.stringify(msg) }).catch(() => undefined);
      });
    });
    const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n').catch(() => undefined), HEARTBEAT_MS);
    await new Promise<void>((resolve) => {
      stream.onAbort(() => resolve());
      // The first event tells the client the stream is live, so it pulls whatever it missed.
      void stream.writeSSE({ event: 'ready', data: JSON.stringify({ type: 'pull', scopes: ['all'] } satisfies PokeMessage) }).catch(() => resolve());
    });
    clearInterval(heartbeat);
    unsubscribe();
  });
}
