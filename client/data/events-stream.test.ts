import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './events-stream';

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
