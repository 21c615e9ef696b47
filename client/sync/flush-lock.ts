/**
 * Only one tab pushes and pulls at a time: the Web Locks API where the browser has it; otherwise
 * (Node tests, old browsers) an in-process queue per database name, which covers every "tab" that
 * shares this JavaScript realm.
 */
const chains = new Map<string, Promise<unknown>>();

interface LockManagerLike {
  request<T>(name: string, cb: () => Promise<T>): Promise<T>;
}

function webLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

export async function withSyncLock<T>(dbName: string, fn: () => Promise<T>): Promise<T> {
  const name = `vidi-sync:${dbName}`;
  const locks = webLocks();
  if (locks) return locks.request(name, fn);
  const before = chains.get(name) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const settled = run.catch(() => undefined);
  chains.set(name, settled);
  try {
    return await run;
  } finally {
    if (chains.get(name) === settled) chains.delete(name);
  }
}
