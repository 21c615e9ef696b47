/** What the check needs of the page (the window in the app; a stand-in in the tests). */
export interface ChunkPage {
  online(): boolean;
  path(): string;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  fetch(url: string, init: RequestInit): Promise<Pick<Response, 'status'>>;
  reload(): void;
}

const RELOADED_KEY = 'vidi.reloadedForChunk';

/** The file a failed import or preload names: vite's and the browser's messages end with its address. */
export function chunkUrlOf(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+?\.(?:js|css))\b/.exec(message)?.[1] ?? null;
}

/**
 * A chunk of an older deploy is gone (the server answers 404 for it): the page reloads once, per
 * path, to get the current shell. A chunk that did not come over the network is left to the screen
 * (client/ui/lazy-piece.tsx): on a first visit, before the service worker keeps the app, a reload
 * where the network is down (navigator.onLine says true on a weak signal) shows the browser's
 * offline page instead of the app. Resolves with whether it reloaded.
 */
export async function reloadIfChunkGone(error: unknown, page: ChunkPage): Promise<boolean> {
  const url = chunkUrlOf(error);
  if (!url || !page.online() || page.storage.getItem(RELOADED_KEY) === page.path()) return false;
  let status: number;
  try {
    status = (await page.fetch(url, { method: 'HEAD', cache: 'no-store' })).status;
  } catch {
    return false;
  }
  if (status !== 404 && status !== 410) return false;
  page.storage.setItem(RELOADED_KEY, page.path());
  page.reload();
  return true;
}
