import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger';
import { startConnectionLoop, type Backoff, type HeldConnection } from '../cluster/connection-loop';
import { createPokes, FULL_POKE_SCOPE, type Pokes } from './pokes';

/** The channel every instance on one database NOTIFYs and LISTENs on. */
export const POKES_CHANNEL = 'vidi_pokes';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a margin below it. */
export const MAX_PAYLOAD_BYTES = 7900;

interface WireMessage {
  /** The sending instance: its own messages come back to it and are skipped (it emitted them already). */
  i: string;
  s: string[];
  o?: string;
}

/**
 * The payloads that carry `scopes`: one when it fits, else the scopes packed into several. A
 * scope too long for a payload on its own (none is, today) turns the whole poke into a full one.
 */
export function pokePayloads(instanceId: string, scopes: string[], origin: string | undefined): string[] {
  const encode = (s: string[]) => JSON.stringify({ i: instanceId, s, ...(origin === undefined ? {} : { o: origin }) } satisfies WireMessage);
  const whole = encode(scopes);
  if (Buffer.byteLength(whole) <= MAX_PAYLOAD_BYTES) return [whole];
  const payloads: string[] = [];
  let part: string[] = [];
  for (const scope of scopes) {
    if (Buffer.byteLength(encode([scope])) > MAX_PAYLOAD_BYTES) return [encode([FULL_POKE_SCOPE])];
    if (part.length && Buffer.byteLength(encode([...part, scope])) > MAX_PAYLOAD_BYTES) {
      payloads.push(encode(part));
      part = [];
    }
    part.push(scope);
  }
  if (part.length) payloads.push(encode(part));
  return payloads;
}

function parse(payload: string | undefined): WireMessage | null {
  try {
    const m = JSON.parse(payload ?? '') as Partial<WireMessage>;
    if (typeof m.i !== 'string' || !Array.isArray(m.s) || !m.s.every((s) => typeof s === 'string')) return null;
    return { i: m.i, s: m.s, ...(typeof m.o === 'string' ? { o: m.o } : {}) };
  } catch {
    return null;
  }
}

export interface SharedPokes extends Pokes {
  /** This instance's id, carried in every message it sends (and its LISTEN connection's application_name). */
  instanceId: string;
  /** Whether the LISTEN connection is up now. */
  listening(): boolean;
  /** Settles once the LISTEN connection is up the first time. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface SharedPokesOptions {
  url: string;
  /** Sends the NOTIFYs: the app's pool, so a notify never waits for the LISTEN connection. */
  pool: pg.Pool;
  log: Logger;
  backoff?: Backoff;
  /**
   * false: only send (a media worker holds no streams, so it needs no LISTEN connection nor the
   * other instances' pokes). Default true.
   */
  listen?: boolean;
}

/**
 * Pokes shared by every instance on one PostgreSQL database: a notify is emitted here at once and
 * sent to the others with pg_notify; a connection of its own (not from the pool: LISTEN holds it)
 * passes the others' messages on here. NOTIFY is delivered only to connections listening at that
 * moment, so while that connection is down pokes are lost; once it is back every open stream is
 * given a full poke, whose delta covers everything the change log gained meanwhile.
 */
export function createSharedPokes(options: SharedPokesOptions): SharedPokes {
  const local = createPokes();
  const instanceId = randomUUID();
  let up = false;

  const connect = async (): Promise<HeldConnection> => {
    const client = new pg.Client({ connectionString: options.url, application_name: `vidi-pokes-${instanceId}`, keepAlive: true });
    const ended = new Promise<void>((resolve) => {
      client.on('error', () => resolve());
      client.on('end', () => resolve());
    });
    client.on('notification', (n) => {
      const m = n.channel === POKES_CHANNEL ? parse(n.payload) : null;
      if (m && m.i !== instanceId) local.notify(m.s, m.o);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${POKES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return { ended, close: () => client.end() };
  };

  const loop =
    options.listen === false
      ? null
      : startConnectionLoop({
          connect,
          onUp: (again) => {
            up = true;
            if (again) {
              options.log.info('live-update connection back: every open stream catches up');
              local.notify([FULL_POKE_SCOPE]);
            }
          },
          onDown: (err) => {
            up = false;
            options.log.error('live-update connection lost; pokes from other instances wait until it is back', err);
          },
          ...(options.backoff ? { backoff: options.backoff } : {}),
        });

  return {
    instanceId,
    listening: () => up,
    ready: loop?.firstUp ?? Promise.resolve(),
    notify(scopes, origin) {
      if (!scopes.length) return;
      local.notify(scopes, origin);
      for (const payload of pokePayloads(instanceId, scopes, origin)) {
        options.pool.query('SELECT pg_notify($1, $2)', [POKES_CHANNEL, payload]).catch((err: unknown) => {
          options.log.error('could not send a poke to the other instances', err);
        });
      }
    },
    subscribe: (listener) => local.subscribe(listener),
    close: async () => {
      await loop?.stop();
    },
  };
}
