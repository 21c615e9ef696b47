export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Reads a server-sent-events body until it ends (or its fetch is aborted): `onEvent` gets every
 * complete event with the time its chunk arrived (performance.now()), then `onRead` runs once per
 * chunk read. Comment lines (heartbeats) are skipped. Resolves 'ended'.
 */
export async function readSseEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: SseEvent, arrivedAt: number) => void,
  onRead: () => void = () => {},
): Promise<'ended'> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
    if (done) return 'ended';
    const at = performance.now();
    buf += decoder.decode(value, { stream: true });
    for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event) onEvent({ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' }, at);
    }
    onRead();
  }
}
