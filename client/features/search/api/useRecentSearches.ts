import { useCallback, useState } from 'react';
import { clearRecentSearches, forgetSearch, readRecentSearches, rememberSearch } from './recent-searches';

export interface RecentSearches {
  list: string[];
  remember(query: string): void;
  forget(query: string): void;
  clear(): void;
}

/** The signed-in member's recent searches on this device (recent-searches.ts). */
export function useRecentSearches(userId: string): RecentSearches {
  const [list, setList] = useState(() => readRecentSearches(localStorage, userId));
  const remember = useCallback((q: string) => setList(rememberSearch(localStorage, userId, q)), [userId]);
  const forget = useCallback((q: string) => setList(forgetSearch(localStorage, userId, q)), [userId]);
  const clear = useCallback(() => {
    clearRecentSearches(localStorage, userId);
    setList([]);
  }, [userId]);
  return { list, remember, forget, clear };
}
