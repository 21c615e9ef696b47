import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A TCP proxy on loopback that misbehaves like a bad network: it cuts connections at random byte
 * offsets (a FIN or a RST after exactly N forwarded bytes), stalls them for a while, and throttles
 * them. Counters tell a test how many faults really happened and how many bytes crossed.
 */
export interface FaultOptions {
  /**
   * Probability of a cut per window of bytes: every `cutBetween[1]` bytes of a direction a new
   * window starts, and with this probability a cut falls at a random offset in it. Kept-alive
   * connections therefore keep meeting faults, not only their first bytes.
   */
  cutRate?: number;
  /** [lo, hi]: a cut falls between lo and hi bytes into its window; hi is the window size. */
  cutBetween?: [number, number];
  /** Which direction's bytes count toward the cut: client->server, server->client, or either. */
  cutDirection?: 'up' | 'down' | 'either';
  /** Probability that a connection stalls once (no bytes forwarded either way) ... */
  stallRate?: number;
  /** ... for this long. */
  stallMs?: number;
  /** Bytes per second per direction per connection; 0 = unthrottled. */
  throttleBps?: number;
  /** One cut, proxy-wide: when the total client->server bytes reach this offset (then cleared). */
  cutAtTotalUp?: number;
  /** Deterministic randomness for repeatable runs (defaults to Math.random). */
  random?: () => number;
}

export interface ProxyStats {
  connections: number;
  cuts: number;
  stalls: number;
  /** Bytes forwarded client -> server. */
  bytesUp: number;
  /** Bytes forwarded server -> client. */
  bytesDown: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  stats: ProxyStats;
  /** Changes the faults for connections opened from now on. */
  set(options: FaultOptions): void;
  /** Changes only the throttle (bytes/s; 0 = none), keeping every other fault as it is. */
  throttle(bps: number): void;
  /** Cuts every open connection now (a network drop). */
  cutAll(): void;
  close(): Promise<void>;
}

interface Plan {
  stallDir: 'up' | 'down' | null;
  stallAt: number;
}

export async function startFaultProxy(targetPort: number, initial: FaultOptions = {}, targetHost = '127.0.0.1'): Promise<FaultProxy> {
  let options = initial;
  const stats: ProxyStats = { connections: 0, cuts: 0, stalls: 0, bytesUp: 0, bytesDown: 0 };
  const open = new Set<Socket>();

  const rand = () => (options.random ?? Math.random)();
  const plan = (): Plan => {
    const stall = rand() < (options.stallRate ?? 0);
    return { stallDir: stall ? (rand() < 0.5 ? 'up' : 'down') : null, stallAt: Math.floor(rand() * 16 * 1024) };
  };
  /** Where the next cut of a direction falls, for the window starting at `start` (Infinity: none). */
  const rollCut = (dir: 'up' | 'down', start: number): number => {
    const d = options.cutDirection ?? 'either';
    const rate = (options.cutRate ?? 0) * (d === 'either' ? 0.5 : d === dir ? 1 : 0);
    const [lo, hi] = options.cutBetween ?? [0, 64 * 1024];
    return rand() < rate ? start + lo + Math.floor(rand() * (hi - lo + 1)) : Infinity;
  };

  /**
   * The cuts of one direction of one connection: a point rolled per window of cutBetween's upper
   * bound, or the one-off cut once cutAtTotalUp bytes went up (on all connections). For a chunk
   * arriving after `seen` bytes: how many of its bytes to forward, and whether to cut after them.
   */
  const cutter = (dir: 'up' | 'down') => {
    const windowSize = Math.max(1, (options.cutBetween ?? [0, 64 * 1024])[1]);
    let windowStart = 0;
    let cutAt = rollCut(dir, 0);
    return (seen: number, length: number): { keep: number; cut: boolean } => {
      while (cutAt === Infinity && seen + length >= windowStart + windowSize) {
        windowStart += windowSize;
        cutAt = rollCut(dir, windowStart);
      }
      const once = options.cutAtTotalUp;
      if (dir === 'up' && once !== undefined && stats.bytesUp + length >= once) {
        const { cutAtTotalUp: _spent, ...rest } = options;
        options = rest;
        return { keep: Math.max(0, once - stats.bytesUp), cut: true };
      }
      if (seen + length >= cutAt) return { keep: Math.max(0, cutAt - seen), cut: true };
      return { keep: length, cut: false };
    };
  };

  // Half-open allowed: a client's FIN must not drop bytes the proxy still holds (stalled or throttled).
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    stats.connections++;
    const p = plan();
    const throttle = options.throttleBps ?? 0;
    const stallMs = options.stallMs ?? 1000;
    const upstream = connect({ port: targetPort, host: targetHost, allowHalfOpen: true });
    open.add(client);
    open.add(upstream);
    let dead = false;
    const kill = (reset: boolean) => {
      if (dead) return;
      dead = true;
      for (const s of [client, upstream]) {
        if (reset) s.resetAndDestroy();
        else s.destroy();
      }
    };
    for (const s of [client, upstream]) {
      s.on('error', () => kill(false));
      // A close is not a fault: each pump ends its peer when its source ends, after the bytes it holds.
      s.on('close', () => open.delete(s));
    }

    const pump = async (src: Socket, dst: Socket, dir: 'up' | 'down') => {
      let seen = 0;
      let stalled = false;
      const cutPoint = cutter(dir);
      try {
        // destroyOnReturn false: the end of one direction must not destroy the socket the other still uses.
        for await (const raw of src.iterator({ destroyOnReturn: false })) {
          let chunk = raw as Buffer;
          if (dead) return;
          if (p.stallDir === dir && !stalled && seen + chunk.length > p.stallAt) {
            stalled = true;
            stats.stalls++;
            await sleep(stallMs);
            if (dead) return;
          }
          const { keep, cut: cutNow } = cutPoint(seen, chunk.length);
          chunk = chunk.subarray(0, keep);
          seen += chunk.length;
          if (dir === 'up') stats.bytesUp += chunk.length;
          else stats.bytesDown += chunk.length;
          if (chunk.length && !dst.write(chunk)) await new Promise<void>((ok) => dst.once('drain', ok).once('close', ok));
          if (cutNow) {
            stats.cuts++;
            // Let the forwarded bytes leave before the connection dies: the peer sees exactly N bytes.
            await new Promise<void>((ok) => (dst.writableLength ? dst.once('drain', ok).once('close', ok) : ok()));
            kill(rand() < 0.5);
            return;
          }
          if (throttle > 0) await sleep((chunk.length / throttle) * 1000);
        }
        if (!dead) dst.end();
      } catch {
        kill(false);
      }
    };
    upstream.once('connect', () => {
      void pump(client, upstream, 'up');
      void pump(upstream, client, 'down');
    });
  });

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    set: (o) => {
      options = o;
    },
    throttle: (bps) => {
      options = { ...options, throttleBps: bps };
    },
    cutAll: () => {
      for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const s of open) s.destroy();
        server.close(() => ok());
      }),
  };
}
