/** Reconnect delays of the live-update stream: 1 s, 2 s, 5 s, 10 s, then 10 s (docs/sync.md, "Live"). */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000] as const;
/**
 * After the server closed this stream because the member opened a newer one elsewhere (at most 5
 * are kept): reconnecting at once would close another tab's stream, and so on around the tabs.
 */
export const REPLACED_RECONNECT_MS = 5 * 60_000;
/** Two missed heartbeats (25 s each) and the connection is treated as dead. */
export const STREAM_IDLE_MS = 60_000;

export interface SseEvent {
  event: string;
  data: string;
}

/** Splits an SSE byte stream into events; comment lines (heartbeats) count as activity only. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => void, onActivity: () => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onActivity();
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const i = line.indexOf(':');
          const field = i < 0 ? line : line.slice(0, i);
          const val = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
          if (field === 'event') event = val;
          else if (field === 'data') data.push(val);
        }
        if (data.length || event !== 'message') onEvent({ event, data: data.join('\n') });
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export interface StreamFollower {
  /** Ends the stream and the reconnect loop for good. */
  stop(): void;
  /** Cuts a reconnect wait short (the network is back). */
  wake(): void;
}

/**
 * Keeps an SSE stream open: `open` makes the request (with the caller's auth); 60 s without a byte
 * counts as a dead connection; after a drop it reconnects after 1 s, 2 s, 5 s, 10 s, 10 s ...
 * (back to 1 s once a stream was live); after 5 minutes when a newer stream replaced it. wake()
 * (the network came back, the app was opened again) reconnects at once.
 */
export function followStream(opts: { open(signal: AbortSignal): Promise<Response>; onEvent(e: SseEvent): void; onLive(live: boolean): void }): StreamFollower {
  let stopped = false;
  let abort: AbortController | null = null;
  let wake: (() => void) | null = null;
  void (async () => {
    let failures = 0;
    while (!stopped) {
      let replaced = false;
      const ctl = new AbortController();
      abort = ctl;
      let idle: ReturnType<typeof setTimeout> | null = null;
      const bump = () => {
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => ctl.abort(), STREAM_IDLE_MS);
      };
      try {
        const res = await opts.open(ctl.signal);
        if (res.ok && res.body) {
          failures = 0;
          opts.onLive(true);
          bump();
          await readSse(
            res.body,
            (e) => {
              if (e.event === 'replaced') replaced = true;
              else opts.onEvent(e);
            },
            bump,
          );
        } else {
          await res.body?.cancel().catch(() => undefined);
        }
      } catch {
        // Reconnect below.
      } finally {
        if (idle) clearTimeout(idle);
        opts.onLive(false);
      }
      if (stopped) break;
      const delay = replaced ? REPLACED_RECONNECT_MS : RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
      failures += 1;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  })();
  return {
    stop() {
      stopped = true;
      abort?.abort();
      wake?.();
    },
    wake: () => wake?.(),
  };
}
