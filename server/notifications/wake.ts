// A commit that made a push due now wakes this process's push senders (they otherwise look every
// tick). Writes happen deep inside transactions that carry no dependencies, so the senders register
// here; other instances find the row on their next tick.

const listeners = new Set<() => void>();

export function onPushDue(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wakePushSenders(): void {
  for (const l of listeners) l();
}
