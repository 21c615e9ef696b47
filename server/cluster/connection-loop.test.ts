import { describe, expect, it } from 'vitest';
import { retryDelay, startConnectionLoop, type HeldConnection } from './connection-loop';

/** A connection the test ends by hand. */
function fakeConnection(): HeldConnection & { drop(): void; closed: boolean } {
  let drop = () => {};
  const ended = new Promise<void>((resolve) => (drop = resolve));
  const conn = {
    ended,
    closed: false,
    drop: () => drop(),
    close: async () => {
      conn.closed = true;
      drop();
    },
  };
  return conn;
}

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('retryDelay', () => {
  it('doubles from the first wait and stops at the longest', () => {
    const b = { initialMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 5, 60].map((n) => retryDelay(n, b))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });
});

describe('startConnectionLoop', () => {
  it('reconnects after a drop and says it is up again', async () => {
    const conns: Array<ReturnType<typeof fakeConnection>> = [];
    const ups: boolean[] = [];
    let downs = 0;
    const loop = startConnectionLoop({
      connect: async () => {
        const c = fakeConnection();
        conns.push(c);
        return c;
      },
      onUp: (again) => ups.push(again),
      onDown: () => downs++,
      backoff: { initialMs: 10, maxMs: 50 },
    });
    await loop.firstUp;
    expect(ups).toEqual([false]);
    conns[0]!.drop();
    await until(() => ups.length === 2);
    expect(ups).toEqual([false, true]);
    expect(downs).toBe(1);
    await loop.stop();
    expect(conns[1]!.closed).toBe(true);
    expect(conns).toHaveLength(2);
  });

  it('waits longer after each failed try in a row', async () => {
    const tries: number[] = [];
    let failNext = 3;
    const loop = startConnectionLoop({
      connect: async () => {
        tries.push(Date.now());
        if (failNext-- > 0) throw new Error('refused');
        return fakeConnection();
      },
      backoff: { initialMs: 40, maxMs: 1000 },
    });
    await loop.firstUp;
    expect(tries).toHaveLength(4);
    const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
    // 40, 80, 160 ms (timers fire no earlier than asked).
    expect(gaps[0]).toBeGreaterThanOrEqual(39);
    expect(gaps[1]).toBeGreaterThanOrEqual(79);
    expect(gaps[2]).toBeGreaterThanOrEqual(159);
    await loop.stop();
  });

  it('stops while waiting to retry, without trying again', async () => {
    let tries = 0;
    const loop = startConnectionLoop({
      connect: async () => {
        tries++;
        throw new Error('down');
      },
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    await until(() => tries === 1);
    const before = Date.now();
    await loop.stop();
    expect(Date.now() - before).toBeLessThan(1000);
    expect(tries).toBe(1);
  });

  it('closes a connection that came up after stop was called', async () => {
    let release = () => {};
    const conn = fakeConnection();
    const loop = startConnectionLoop({
      connect: () => new Promise<HeldConnection>((resolve) => (release = () => resolve(conn))),
    });
    await until(() => true);
    const stopping = loop.stop();
    release();
    await stopping;
    expect(conn.closed).toBe(true);
  });
});
