import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Cache Storage, fetch, navigator and localStorage are stubbed: these tests pin what is stored, when,
// and what the member is told; tests/e2e/offline-media.test.ts checks the real browser and worker.

class FakeCache {
  entries = new Map<string, Response>();
  quotaLeft = Infinity;
  async match(req: string | Request) {
    return this.entries.get(typeof req === 'string' ? req : req.url)?.clone();
  }
  async put(req: string | Request, res: Response) {
    const body = await res.arrayBuffer();
    if (body.byteLength > this.quotaLeft) throw new DOMException('full', 'QuotaExceededError');
    this.entries.set(typeof req === 'string' ? req : req.url, new Response(body, { status: res.status, headers: res.headers }));
  }
  async keys() {
    return [...this.entries.keys()].map((u) => new Request(u));
  }
  async delete(req: string | Request) {
    return this.entries.delete(typeof req === 'string' ? req : req.url);
  }
}

class FakeCaches {
  named = new Map<string, FakeCache>();
  async open(name: string) {
    let c = this.named.get(name);
    if (!c) this.named.set(name, (c = new FakeCache()));
    return c;
  }
  async delete(name: string) {
    return this.named.delete(name);
  }
}

const ORIGIN = 'http://localhost';
const mp4 = (id: string) => `/media/u1/${id}/job1/small.mp4`;
const item = (id: string, created: string, status: 'ready' | 'processing' = 'ready', hasMp4 = true) => ({
  mp4_url: hasMp4 ? mp4(id) : null,
  media_status: status,
  created_at: created,
});

let fakeCaches: FakeCaches;
let fetchMock: ReturnType<typeof vi.fn>;
let prefs: Record<string, string>;

async function load() {
  vi.resetModules();
  return import('./offline-media');
}

function stubConnection(connection: object | undefined, onLine = true) {
  vi.stubGlobal('navigator', { onLine, ...(connection ? { connection } : {}) });
}

beforeEach(() => {
  fakeCaches = new FakeCaches();
  fetchMock = vi.fn(async () => new Response(new Uint8Array(1000), { status: 200, headers: { 'content-type': 'video/mp4' } }));
  prefs = {};
  vi.stubGlobal('caches', fakeCaches);
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', { getItem: (k: string) => prefs[k] ?? null, setItem: (k: string, v: string) => void (prefs[k] = v) });
  stubConnection(undefined);
});
afterEach(() => vi.unstubAllGlobals());

const stored = async () => [...(await fakeCaches.open('vidi-media')).entries.keys()];

describe('saveForOffline', () => {
  it('stores the MP4 once, marked as an offline copy, and shares a download already under way', async () => {
    const { saveForOffline, isSavedForOffline, onOfflineVideosChanged } = await load();
    const changed = vi.fn();
    onOfflineVideosChanged(changed);
    await Promise.all([saveForOffline(mp4('a')), saveForOffline(mp4('a'))]);
    await saveForOffline(`${ORIGIN}${mp4('a')}`);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await stored()).toEqual([`${ORIGIN}${mp4('a')}`]);
    const copy = await (await fakeCaches.open('vidi-media')).match(`${ORIGIN}${mp4('a')}`);
    expect(copy?.headers.get('x-vidi-offline-copy')).toBe('1');
    expect(copy?.headers.get('content-type')).toBe('video/mp4');
    expect(await isSavedForOffline(mp4('a'))).toBe(true);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('never stores HLS playlists or segments', async () => {
    const { saveForOffline } = await load();
    for (const url of ['/media/u1/a/job1/master.m3u8', '/media/u1/a/job1/360p/seg-1.m4s', '/media/u1/a/job1/360p/init.mp4']) {
      await expect(saveForOffline(url)).rejects.toThrow('Only the downloadable copy of a video can be saved for offline viewing.');
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects with a sentence for the member when the download fails, and stores nothing', async () => {
    const { saveForOffline } = await load();
    fetchMock.mockResolvedValueOnce(new Response('{"error":{}}', { status: 404 }));
    await expect(saveForOffline(mp4('gone'))).rejects.toThrow('This video cannot be saved for offline viewing right now.');
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(saveForOffline(mp4('offline'))).rejects.toThrow('Could not download the video. Check your connection and try again.');
    expect(await stored()).toEqual([]);
    // A failed save may be tried again.
    await saveForOffline(mp4('offline'));
    expect(await stored()).toEqual([`${ORIGIN}${mp4('offline')}`]);
  });

  it('says so when the device is out of space', async () => {
    const { saveForOffline } = await load();
    (await fakeCaches.open('vidi-media')).quotaLeft = 10;
    await expect(saveForOffline(mp4('big'))).rejects.toThrow('There is not enough space on this device to save this video.');
  });

  it('keeps at most MAX_SAVED_VIDEOS copies, dropping the oldest', async () => {
    const { saveForOffline, MAX_SAVED_VIDEOS } = await load();
    for (let i = 0; i <= MAX_SAVED_VIDEOS; i++) await saveForOffline(mp4(`v${i}`));
    const keys = await stored();
    expect(keys).toHaveLength(MAX_SAVED_VIDEOS);
    expect(keys).not.toContain(`${ORIGIN}${mp4('v0')}`);
    expect(keys).toContain(`${ORIGIN}${mp4(`v${MAX_SAVED_VIDEOS}`)}`);
  });

  it('does not store a download that finished after the member cleared the saved videos', async () => {
    const { saveForOffline, clearOfflineVideos } = await load();
    let finish: (r: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((ok) => (finish = ok)));
    const saving = saveForOffline(mp4('late'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await clearOfflineVideos();
    finish(new Response(new Uint8Array(10), { status: 200 }));
    await saving;
    expect(await stored()).toEqual([]);
  });
});

describe('offlineUrlFor, clearOfflineVideos, storageUsage', () => {
  it('gives the mp4 URL only when a copy is stored', async () => {
    const { offlineUrlFor, saveForOffline } = await load();
    expect(await offlineUrlFor({ mp4_url: null })).toBeNull();
    expect(await offlineUrlFor({ mp4_url: mp4('a') })).toBeNull();
    await saveForOffline(mp4('a'));
    expect(await offlineUrlFor({ mp4_url: mp4('a') })).toBe(mp4('a'));
  });

  it('clears every saved copy and tells listeners', async () => {
    const { saveForOffline, clearOfflineVideos, isSavedForOffline, onOfflineVideosChanged, storageUsage } = await load();
    await saveForOffline(mp4('a'));
    await saveForOffline(mp4('b'));
    expect((await storageUsage()).savedVideos).toBe(2);
    const changed = vi.fn();
    onOfflineVideosChanged(changed);
    await clearOfflineVideos();
    expect(changed).toHaveBeenCalledTimes(1);
    expect(await isSavedForOffline(mp4('a'))).toBe(false);
    expect((await storageUsage()).savedVideos).toBe(0);
  });

  it("reports the browser's estimate, persistence and the number of saved videos", async () => {
    vi.stubGlobal('navigator', {
      storage: { estimate: async () => ({ usage: 12_345_678, quota: 2_000_000_000 }), persisted: async () => true },
    });
    const { storageUsage, saveForOffline } = await load();
    await saveForOffline(mp4('a'));
    expect(await storageUsage()).toEqual({ usedBytes: 12_345_678, quotaBytes: 2_000_000_000, savedVideos: 1, persistent: true });
  });

  it('reports zeros where the browser has no StorageManager or Cache Storage', async () => {
    vi.stubGlobal('navigator', {});
    vi.stubGlobal('caches', undefined);
    const { storageUsage, isSavedForOffline, saveForOffline } = await load();
    expect(await storageUsage()).toEqual({ usedBytes: 0, quotaBytes: 0, savedVideos: 0, persistent: false });
    expect(await isSavedForOffline(mp4('a'))).toBe(false);
    await expect(saveForOffline(mp4('a'))).rejects.toThrow('This browser cannot keep videos for offline viewing.');
  });
});

describe('keepMediaForOffline', () => {
  it('keeps the small MP4 in the background, ignores missing and streamed URLs, and never rejects', async () => {
    const { keepMediaForOffline } = await load();
    keepMediaForOffline(null);
    keepMediaForOffline(undefined);
    keepMediaForOffline('/media/u1/a/job1/master.m3u8');
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    keepMediaForOffline(mp4('fails'));
    keepMediaForOffline(mp4('a'));
    await vi.waitFor(async () => expect(await stored()).toEqual([`${ORIGIN}${mp4('a')}`]));
  });
});

describe('downloadAhead', () => {
  const feed = [
    item('old', '2025-01-01T00:00:00.000Z'),
    item('n1', '2025-03-07T00:00:00.000Z'),
    item('n2', '2025-03-06T00:00:00.000Z'),
    item('proc', '2025-03-08T00:00:00.000Z', 'processing'),
    item('nomp4', '2025-03-09T00:00:00.000Z', 'ready', false),
    item('n3', '2025-03-05T00:00:00.000Z'),
    item('n4', '2025-03-04T00:00:00.000Z'),
    item('n5', '2025-03-03T00:00:00.000Z'),
    item('n6', '2025-03-02T00:00:00.000Z'),
  ];
  const turnOn = () => (prefs['vidi.mediaPreferences'] = JSON.stringify({ dataSaver: false, downloadAhead: true }));

  it('does nothing while the setting is off', async () => {
    const { downloadAhead } = await load();
    expect(await downloadAhead(feed)).toBe(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores the newest five ready videos not saved yet, on Wi-Fi', async () => {
    turnOn();
    stubConnection({ type: 'wifi', effectiveType: '4g', saveData: false });
    const { downloadAhead, saveForOffline } = await load();
    await saveForOffline(mp4('n2'));
    fetchMock.mockClear();
    expect(await downloadAhead(feed)).toBe(4);
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['n1', 'n3', 'n4', 'n5'].map((id) => `${ORIGIN}${mp4(id)}`));
    // Everything wanted is stored: a second call downloads nothing.
    expect(await downloadAhead(feed)).toBe(0);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('downloads where the browser does not describe the connection', async () => {
    turnOn();
    stubConnection(undefined);
    const { downloadAhead } = await load();
    expect(await downloadAhead(feed)).toBe(5);
  });

  it.each([
    ['cellular', { type: 'cellular', effectiveType: '4g' }, true],
    ['Save-Data', { type: 'wifi', effectiveType: '4g', saveData: true }, true],
    ['a slow link', { effectiveType: '3g' }, true],
    ['no network', undefined, false],
  ])('does nothing on %s', async (_name, connection, onLine) => {
    turnOn();
    stubConnection(connection, onLine);
    const { downloadAhead } = await load();
    expect(await downloadAhead(feed)).toBe(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stops at the first failure and never rejects', async () => {
    turnOn();
    const { downloadAhead } = await load();
    fetchMock.mockResolvedValueOnce(new Response(new Uint8Array(10), { status: 200 }));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await downloadAhead(feed)).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('runs once at a time: a call during a run gets that run', async () => {
    turnOn();
    const { downloadAhead } = await load();
    const first = downloadAhead(feed);
    expect(downloadAhead(feed)).toBe(first);
    expect(await first).toBe(5);
  });
});
