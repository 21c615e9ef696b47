import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A TCP proxy on loopback that misbehaves like a bad network: it cuts connections at random byte
 * offsets (a FIN or a RST after exactly N forwarded bytes), stalls them for a while, and throttles
 * them. Counters tell a test how many faults really happened and how many bytes crossed.
 */
export interface FaultOptions {
  /** Probability that a new connection is cut somewhere. */
  cutRate?: number;
  /** Byte offsets (within the chosen direction) where a cut may fall, inclusive range. */
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
  /** Cuts every open connection now (a network drop). */
  cutAll(): void;
  close(): Promise<void>;
}

interface Plan {
  cutDir: 'up' | 'down' | null;
  cutAt: number;
  reset: boolean;
  stallDir: 'up' | 'down' | null;
  stallAt: number;
}

export async function startFaultProxy(targetPort: number, initial: FaultOptions = {}, targetHost = '127.0.0.1'): Promise<FaultProxy> {
  let options = initial;
  const stats: ProxyStats = { connections: 0, cuts: 0, stalls: 0, bytesUp: 0, bytesDown: 0 };
  const open = new Set<Socket>();

  const plan = (): Plan => {
    const r = options.random ?? Math.random;
    const [lo, hi] = options.cutBetween ?? [0, 64 * 1024];
    const pickDir = (d: FaultOptions['cutDirection']) => (d === 'up' || d === 'down' ? d : r() < 0.5 ? 'up' : 'down');
    const cut = r() < (options.cutRate ?? 0);
    const stall = r() < (options.stallRate ?? 0);
    return {
      cutDir: cut ? pickDir(options.cutDirection) : null,
      cutAt: lo + Math.floor(r() * (hi - lo + 1)),
      reset: r() < 0.5,
      stallDir: stall ? pickDir('either') : null,
      stallAt: Math.floor(r() * 16 * 1024),
    };
  };

  const server: Server = createServer((client) => {
    stats.connections++;
    const p = plan();
    const throttle = options.throttleBps ?? 0;
    const stallMs = options.stallMs ?? 1000;
    const upstream = connect(targetPort, targetHost);
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
      s.on('close', () => {
        open.delete(s);
        kill(false);
      });
    }

    const pump = async (src: Socket, dst: Socket, dir: 'up' | 'down') => {
      let seen = 0;
      let stalled = false;
      try {
        for await (const raw of src) {
          let chunk = raw as Buffer;
          if (dead) return;
          if (p.stallDir === dir && !stalled && seen + chunk.length > p.stallAt) {
            stalled = true;
            stats.stalls++;
            await sleep(stallMs);
            if (dead) return;
          }
          let cutNow = false;
          const once = options.cutAtTotalUp;
          if (dir === 'up' && once !== undefined && stats.bytesUp + chunk.length >= once) {
            chunk = chunk.subarray(0, Math.max(0, once - stats.bytesUp));
            const { cutAtTotalUp: _spent, ...rest } = options;
            options = rest;
            cutNow = true;
          } else if (p.cutDir === dir && seen + chunk.length >= p.cutAt) {
            chunk = chunk.subarray(0, Math.max(0, p.cutAt - seen));
            cutNow = true;
          }
          seen += chunk.length;
          if (dir === 'up') stats.bytesUp += chunk.length;
          else stats.bytesDown += chunk.length;
          if (chunk.length && !dst.write(chunk)) await new Promise<void>((ok) => dst.once('drain', ok).once('close', ok));
          if (cutNow) {
            stats.cuts++;
            // Let the forwarded bytes leave before the connection dies: the peer sees exactly N bytes.
            await new Promise<void>((ok) => (dst.writableLength ? dst.once('drain', ok).once('close', ok) : ok()));
            kill(p.reset);
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
