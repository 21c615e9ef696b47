/** How many recent searches a member keeps on the device. */
export const RECENT_SEARCHES_MAX = 10;

/** Where they are kept: the page's localStorage, or a stand-in in a test. */
export type RecentStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

// Per member: the next member signed in on this device must not see this one's searches.
const keyFor = (userId: string) => `vidi.recentSearches.${userId}`;

/** The member's recent searches, newest first (nothing, when none or unreadable). */
export function readRecentSearches(store: RecentStore, userId: string): string[] {
  try {
    const kept: unknown = JSON.parse(store.getItem(keyFor(userId)) ?? '[]');
    return Array.isArray(kept) ? kept.filter((q): q is string => typeof q === 'string').slice(0, RECENT_SEARCHES_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts `query` first (once, whatever its case was before), keeps the last RECENT_SEARCHES_MAX; returns the list. */
export function rememberSearch(store: RecentStore, userId: string, query: string): string[] {
  const q = query.trim();
  const before = readRecentSearches(store, userId);
  if (!q) return before;
  const list = [q, ...before.filter((old) => old.toLowerCase() !== q.toLowerCase())].slice(0, RECENT_SEARCHES_MAX);
  writeList(store, userId, list);
  return list;
}

/** Forgets one of them; returns the list. */
export function forgetSearch(store: RecentStore, userId: string, query: string): string[] {
  const list = readRecentSearches(store, userId).filter((q) => q !== query);
  writeList(store, userId, list);
  return list;
}

/** Forgets them all. */
export function clearRecentSearches(store: RecentStore, userId: string): void {
  store.removeItem(keyFor(userId));
}

function writeList(store: RecentStore, userId: string, list: string[]): void {
  try {
    store.setItem(keyFor(userId), JSON.stringify(list));
  } catch {
    // A full or refused storage (private mode): the search works, it is just not remembered.
  }
}
