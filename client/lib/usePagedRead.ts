import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from './http/api-error';
import { getPeopleRead, readError, type ReadPage } from './people';

export interface PagedRead<T, P = ReadPage<T>> {
  items: T[];
  /** The first page's answer as it came (a hashtag page's count beside its items), or null. */
  first: P | null;
  /** The first page is on its way. */
  loading: boolean;
  /** Why the last page failed (status 0: no answer and none kept on this device), or null. */
  error: ApiError | null;
  hasMore: boolean;
  loadMore(): void;
}

interface State<T, P> {
  items: T[];
  first: P | null;
  next: string | null;
  loading: boolean;
  error: ApiError | null;
}

const withCursor = (path: string, cursor: string | null) => (cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path);

/**
 * A keyset list read page by page ({ items, next_cursor }): the first page when `path` or `refresh`
 * changes, the next on loadMore. A row already shown is not shown twice.
 */
export function usePagedRead<T extends { id: string }, P extends ReadPage<T> = ReadPage<T>>(path: string | null, refresh: unknown = null): PagedRead<T, P> {
  const [state, setState] = useState<State<T, P>>({ items: [], first: null, next: null, loading: true, error: null });
  // Answers of an earlier path (or refresh) are dropped; one page at a time.
  const generation = useRef(0);
  const busy = useRef(false);
  const shownPath = useRef(path);

  const fetchPage = useCallback(
    (cursor: string | null) => {
      if (!path) return;
      const gen = generation.current;
      busy.current = true;
      getPeopleRead<P | T[]>(withCursor(path, cursor))
        .then(
          (answer) => {
            if (gen !== generation.current) return;
            // A list with no paging (GET /api/people/suggested) is one page.
            const page = Array.isArray(answer) ? { items: answer, next_cursor: null } : answer;
            setState((s) => {
              const before = cursor ? s.items : [];
              const seen = new Set(before.map((i) => i.id));
              const first = cursor ? s.first : Array.isArray(answer) ? null : answer;
              return { items: [...before, ...page.items.filter((i) => !seen.has(i.id))], first, next: page.next_cursor ?? null, loading: false, error: null };
            });
          },
          (e: unknown) => {
            if (gen === generation.current) setState((s) => ({ ...s, loading: false, error: readError(e) }));
          },
        )
        .finally(() => {
          if (gen === generation.current) busy.current = false;
        });
    },
    [path],
  );

  useEffect(() => {
    generation.current += 1;
    busy.current = false;
    // A refresh keeps what is shown until the new first page replaces it; another list does not.
    const other = shownPath.current !== path;
    shownPath.current = path;
    setState((s) => (other ? { items: [], first: null, next: null, loading: true, error: null } : { ...s, loading: s.items.length === 0, error: null }));
    fetchPage(null);
  }, [fetchPage, path, refresh]);

  const next = state.next;
  const loadMore = useCallback(() => {
    if (!busy.current && next) fetchPage(next);
  }, [fetchPage, next]);

  return { items: state.items, first: state.first, loading: state.loading, error: state.error, hasMore: next !== null, loadMore };
}
