import { describe, expect, it } from 'vitest';
import { clearRecentSearches, forgetSearch, readRecentSearches, rememberSearch, RECENT_SEARCHES_MAX, type RecentStore } from './recent-searches';

/** A Storage with localStorage's string-only behaviour (Node has no localStorage without a file). */
function memoryStore(): RecentStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
  };
}

describe('recent searches', () => {
  it('keeps the last ten, newest first, each once whatever its case', () => {
    const store = memoryStore();
    for (let i = 1; i <= 12; i++) rememberSearch(store, 'asha', `query ${i}`);
    expect(readRecentSearches(store, 'asha')).toEqual(Array.from({ length: RECENT_SEARCHES_MAX }, (_, i) => `query ${12 - i}`));
    rememberSearch(store, 'asha', '  QUERY 5 ');
    const list = readRecentSearches(store, 'asha');
    expect(list[0]).toBe('QUERY 5');
    expect(list.filter((q) => q.toLowerCase() === 'query 5')).toHaveLength(1);
    expect(list).toHaveLength(RECENT_SEARCHES_MAX);
  });

  it('are per member: another member on the device sees none of them, and clearing one list leaves the other', () => {
    const store = memoryStore();
    rememberSearch(store, 'asha', '#cats');
    rememberSearch(store, 'ben', 'cricket');
    expect(readRecentSearches(store, 'ben')).toEqual(['cricket']);
    clearRecentSearches(store, 'asha');
    expect(readRecentSearches(store, 'asha')).toEqual([]);
    expect(readRecentSearches(store, 'ben')).toEqual(['cricket']);
  });

  it('forgets one, ignores a blank search, and reads a damaged entry as none', () => {
    const store = memoryStore();
    rememberSearch(store, 'asha', 'a');
    rememberSearch(store, 'asha', 'b');
    expect(rememberSearch(store, 'asha', '   ')).toEqual(['b', 'a']);
    expect(forgetSearch(store, 'asha', 'b')).toEqual(['a']);
    store.data.set('vidi.recentSearches.asha', '{not json');
    expect(readRecentSearches(store, 'asha')).toEqual([]);
    store.data.set('vidi.recentSearches.asha', JSON.stringify(['ok', 7, null]));
    expect(readRecentSearches(store, 'asha')).toEqual(['ok']);
  });
});
