import { createServer, connect, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';

// The proxy itself: a fault test is only as good as the faults it really makes.
describe('fault proxy', () => {
  let sink: Server;
  let port = 0;
  const received: number[] = [];
  beforeAll(async () => {
    sink = createServer((s) => {
      let n = 0;
      // An echo: bytes flow both ways, so faults of either direction have something to hit.
      s.on('data', (d: Buffer) => {
        n += d.length;
        s.write(d);
      });
      s.on('end', () => s.end());
      s.on('close', () => received.push(n));
      s.on('error', () => undefined);
    });
    await new Promise<void>((ok) => sink.listen(0, '127.0.0.1', ok));
    const a = sink.address();
    port = typeof a === 'object' && a ? a.port : 0;
  });
  afterAll(() => new Promise<void>((ok) => sink.close(() => ok())));

  const sendThrough = (proxyPort: number, bytes: number) =>
    new Promise<void>((ok) => {
      const c = connect(proxyPort, '127.0.0.1', () => c.end(Buffer.alloc(bytes, 7)));
      c.resume();
      c.on('error', () => ok());
      c.on('close', () => ok());
    });

  it('delivers exactly N bytes before a one-shot cut, then forwards untouched', async () => {
    const proxy = await startFaultProxy(port, { cutAtTotalUp: 12_345 });
    received.length = 0;
    await sendThrough(proxy.port, 100_000);
    await sendThrough(proxy.port, 5_000);
    await new Promise((r) => setTimeout(r, 100));
    await proxy.close();
    expect(received).toEqual([12_345, 5_000]);
    expect(proxy.stats.cuts).toBe(1);
    expect(proxy.stats.bytesUp).toBe(17_345);
  });

  it('cuts every window when the rate is 1, each inside its window', async () => {
    const proxy = await startFaultProxy(port, { cutRate: 1, cutDirection: 'up', cutBetween: [1_000, 2_000] });
    received.length = 0;
    for (let i = 0; i < 10; i++) await sendThrough(proxy.port, 50_000);
    await new Promise((r) => setTimeout(r, 100));
    await proxy.close();
    expect(proxy.stats.cuts).toBe(10);
    expect(received).toHaveLength(10);
    for (const n of received) {
      expect(n).toBeGreaterThanOrEqual(1_000);
      expect(n).toBeLessThanOrEqual(2_000);
    }
  });

  it('never cuts at rate 0 and counts stalls', async () => {
    const proxy = await startFaultProxy(port, { cutRate: 0, stallRate: 1, stallMs: 10 });
    received.length = 0;
    await sendThrough(proxy.port, 40_000);
    await new Promise((r) => setTimeout(r, 100));
    await proxy.close();
    expect(received).toEqual([40_000]);
    expect(proxy.stats.cuts).toBe(0);
    expect(proxy.stats.stalls).toBe(1);
  });
});
