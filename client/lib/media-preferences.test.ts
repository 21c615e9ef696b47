import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps one snapshot: each test loads it fresh over a fresh localStorage and navigator.
async function load() {
  vi.resetModules();
  return import('./media-preferences');
}

function fakeStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    clear: () => data.clear(),
  };
}

describe('media preferences', () => {
  let storage: Storage;
  let win: EventTarget;
  beforeEach(() => {
    storage = fakeStorage();
    win = new EventTarget();
    vi.stubGlobal('localStorage', storage);
    vi.stubGlobal('window', win);
    vi.stubGlobal('navigator', {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('defaults to data saver off and no download ahead', async () => {
    const { getMediaPreferences } = await load();
    expect(getMediaPreferences()).toEqual({ dataSaver: false, downloadAhead: false });
  });

  it("defaults data saver to the browser's Save-Data setting", async () => {
    vi.stubGlobal('navigator', { connection: { saveData: true } });
    const { getMediaPreferences } = await load();
    expect(getMediaPreferences().dataSaver).toBe(true);
  });

  it('keeps a change in localStorage, so a reload (a fresh module) reads it back', async () => {
    const first = await load();
    first.setMediaPreferences({ dataSaver: true });
    expect(first.getMediaPreferences()).toEqual({ dataSaver: true, downloadAhead: false });
    const second = await load();
    expect(second.getMediaPreferences()).toEqual({ dataSaver: true, downloadAhead: false });
    second.setMediaPreferences({ downloadAhead: true });
    expect((await load()).getMediaPreferences()).toEqual({ dataSaver: true, downloadAhead: true });
  });

  it('an explicit "off" wins over Save-Data', async () => {
    vi.stubGlobal('navigator', { connection: { saveData: true } });
    (await load()).setMediaPreferences({ dataSaver: false });
    expect((await load()).getMediaPreferences().dataSaver).toBe(false);
  });

  it('ignores unreadable or foreign stored values field by field', async () => {
    storage.setItem('vidi.mediaPreferences', '{not json');
    expect((await load()).getMediaPreferences()).toEqual({ dataSaver: false, downloadAhead: false });
    storage.setItem('vidi.mediaPreferences', JSON.stringify({ dataSaver: 'yes', downloadAhead: true }));
    expect((await load()).getMediaPreferences()).toEqual({ dataSaver: false, downloadAhead: true });
  });

  it('returns the same snapshot until something changes (useSyncExternalStore needs that)', async () => {
    const { getMediaPreferences, setMediaPreferences } = await load();
    const a = getMediaPreferences();
    expect(getMediaPreferences()).toBe(a);
    setMediaPreferences({ dataSaver: true });
    expect(getMediaPreferences()).not.toBe(a);
  });

  it('tells subscribers about changes here and in other tabs, until they unsubscribe', async () => {
    const { getMediaPreferences, setMediaPreferences, subscribeMediaPreferences, MEDIA_PREFERENCES_KEY } = await load();
    const seen: boolean[] = [];
    const stop = subscribeMediaPreferences(() => seen.push(getMediaPreferences().dataSaver));
    setMediaPreferences({ dataSaver: true });

    // Another tab writes localStorage; this tab hears a storage event.
    storage.setItem(MEDIA_PREFERENCES_KEY, JSON.stringify({ dataSaver: false, downloadAhead: true }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: MEDIA_PREFERENCES_KEY }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'vidi.session.user' }));
    expect(seen).toEqual([true, false]);
    expect(getMediaPreferences()).toEqual({ dataSaver: false, downloadAhead: true });

    stop();
    setMediaPreferences({ dataSaver: true });
    expect(seen).toEqual([true, false]);
  });

  it('still works for this page when localStorage throws', async () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    });
    const { getMediaPreferences, setMediaPreferences } = await load();
    expect(getMediaPreferences().dataSaver).toBe(false);
    setMediaPreferences({ dataSaver: true });
    expect(getMediaPreferences().dataSaver).toBe(true);
  });
});
