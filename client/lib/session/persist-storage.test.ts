import { afterEach, describe, expect, it, vi } from 'vitest';

function fakeDevice(opts: { persist?: boolean } = {}) {
  const kept = new Map<string, string>();
  const persist = vi.fn(() => Promise.resolve(true));
  vi.stubGlobal('navigator', { storage: opts.persist === false ? {} : { persist } });
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => void kept.set(k, v),
  });
  return { persist, kept };
}

describe('asking for persistent storage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('asks once per device, whichever moment comes first and however often', async () => {
    const { persist, kept } = fakeDevice();
    const { requestPersistentStorage, PERSIST_ASKED_KEY } = await import('./persist-storage');
    requestPersistentStorage();
    requestPersistentStorage();
    expect(persist).toHaveBeenCalledTimes(1);
    expect(kept.has(PERSIST_ASKED_KEY)).toBe(true);

    // Another page load on the same device: the mark is in localStorage.
    vi.resetModules();
    const again = await import('./persist-storage');
    again.requestPersistentStorage();
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('does nothing where the browser cannot persist, and marks nothing', async () => {
    const { kept } = fakeDevice({ persist: false });
    const { requestPersistentStorage } = await import('./persist-storage');
    expect(() => requestPersistentStorage()).not.toThrow();
    expect(kept.size).toBe(0);
  });
});
