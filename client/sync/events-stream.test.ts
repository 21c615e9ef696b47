import { describe, expect, it, vi } from 'vitest';
import { RECONNECT_DELAYS_MS, REPLACED_RECONNECT_MS, followStream, readSse, type SseEvent } from './events-stream';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
}

describe('readSse', () => {
  it('splits events across chunk boundaries and skips heartbeat comments', async () => {
    const events: SseEvent[] = [];
    let activity = 0;
    await readSse(
      streamOf(['event: ready\ndata: {"type":"pull"', ',"scopes":["all"]}\n\n: heartbeat\n\n', 'event: poke\r\ndata: a\r\ndata: b\r\n\r\n']),
      (e) => events.push(e),
      () => activity++,
    );
    expect(events).toEqual([
      { event: 'ready', data: '{"type":"pull","scopes":["all"]}' },
      { event: 'poke', data: 'a\nb' },
    ]);
    expect(activity).toBe(3);
  });
});

describe('followStream', () => {
  const sse = (text: string) => new Response(new TextEncoder().encode(text), { status: 200 });

  it('waits REPLACED_RECONNECT_MS after a "replaced" event (until woken), 1 s after a plain drop', async () => {
    vi.useFakeTimers();
    try {
      const bodies = ['event: ready\ndata: {}\n\nevent: replaced\ndata: {}\n\n', 'event: ready\ndata: {}\n\n', 'event: ready\ndata: {}\n\n'];
      let opened = 0;
      const seen: string[] = [];
      const follower = followStream({
        open: async () => sse(bodies[opened++] ?? ''),
        onEvent: (e) => seen.push(e.event),
        onLive: () => undefined,
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(opened).toBe(1);
      // The replaced event is the follower's own business, not the engine's.
      expect(seen).toEqual(['ready']);
      await vi.advanceTimersByTimeAsync(REPLACED_RECONNECT_MS - 1000);
      expect(opened).toBe(1);
      follower.wake();
      await vi.advanceTimersByTimeAsync(0);
      expect(opened).toBe(2);
      // That stream just ended without a notice: the usual 1 s.
      await vi.advanceTimersByTimeAsync(RECONNECT_DELAYS_MS[0]);
      expect(opened).toBe(3);
      follower.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
