import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import type { PokeMessage } from '#sync/protocol/messages';
import { createDeltaSource, mayReceiveRows } from './poke-deltas';
import type { StreamCloseReason } from './live-streams';

/** A comment line this often keeps proxies and the client's reader from timing out (spec: 25 s). */
export const HEARTBEAT_MS = 25_000;

/** Whether a poke concerns this user: `user:X` scopes go to X only; everything else to everyone. */
function relevant(scope: string, userId: string): boolean {
  return !scope.startsWith('user:') || scope === `user:${userId}`;
}

/**
 * The live-update stream: one `poke` event (type 'pull' plus the scopes) whenever something a client
 * may hold changed, carrying the changed rows when they are few (see poke-deltas.ts). The client
 * applies the delta, or pulls. `?client_id=` names the device's client id, so a delta can also
 * confirm that device's own mutations (last_mutation_id), as a pull does.
 */
export function pokeStream(c: Context<AppEnv>) {
  const { deps, user } = c.var;
  const clientId = c.req.query('client_id') ?? null;
  // requireUser accepted it: the same token is checked again before each delta.
  const token = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  return streamSSE(c, async (stream) => {
    let pending: Set<string> | null = null;
    let writing = false;
    let closed = false;
    const unsubscribe = deps.pokes.subscribe((scopes, origin) => {
      const mine = scopes.filter((s) => relevant(s, user.id));
      if (!mine.length) return;
      pending ??= new Set();
      for (const s of mine) pending.add(s);
      // Pokes that arrive while one is being read or written are coalesced into the next event. A
      // microtask, not a later turn of the event loop: the delta is read before the next request
      // takes the database connection. The acting user's own connections go after everyone
      // else's: their device already shows the change (and pulls after its push).
      if (!writing) {
        writing = true;
        if (origin === user.id) setImmediate(() => void flush());
        else queueMicrotask(() => void flush());
      }
    });
    const deltas = createDeltaSource(deps, user, clientId, () => mayReceiveRows(deps, user.id, token));
    const flush = async () => {
      try {
        while (pending && !closed) {
          const msg: PokeMessage = { type: 'pull', scopes: [...pending] };
          pending = null;
          const next = await deltas.next();
          if (next.kind === 'none') continue;
          if (next.kind === 'delta') msg.delta = next.delta;
          await stream.writeSSE({ event: 'poke', data: JSON.stringify(msg) });
        }
      } catch {
        // The connection is gone; onAbort ends the stream.
      } finally {
        writing = false;
      }
    };
    const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n').catch(() => undefined), HEARTBEAT_MS);
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    // Registered so the server can end it: a member's sixth stream closes the oldest, and a logout
    // or suspension closes the session's or member's streams. Returning ends the response.
    const close = (reason: StreamCloseReason) => {
      // Told before it ends, so the client does not reconnect at once and replace another tab's stream.
      if (reason === 'replaced')
        void stream
          .writeSSE({ event: 'replaced', data: '{}' })
          .catch(() => undefined)
          .finally(() => end());
      else end();
    };
    const unregister = deps.liveStreams.open({ userId: user.id, sessionId: user.sessionId, close });
    stream.onAbort(() => end());
    // The first event tells the client the stream is live, so it pulls whatever it missed. Only once
    // the deltas know where they start: a pull answered before that point could leave the client
    // below the first delta's start, and a poke that found nothing new would then tell it nothing.
    void deltas.opened
      .then(() => stream.writeSSE({ event: 'ready', data: JSON.stringify({ type: 'pull', scopes: ['all'] } satisfies PokeMessage) }))
      .catch(() => end());
    await ended;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    unregister();
  });
}
