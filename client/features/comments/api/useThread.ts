import { useCallback, useEffect, useRef, useState } from 'react';
import { memberHttp } from '#client/lib/session';
import { getClientDb } from '#client/sync/active-engine';
import { loadThreadPage } from '#client/sync/thread-page';
import { useSyncEngine } from '#client/sync/useSyncEngine';

export interface ThreadState {
  expanded: boolean;
  /** A page is on its way. */
  loading: boolean;
  /** The last page could not be read (offline: the replies kept on this device still show). */
  failed: boolean;
  /** The server has more replies than the pages read. */
  hasMore: boolean;
  expand(): void;
  collapse(): void;
  loadMore(): void;
  /** Reads the page that failed again. */
  retry(): void;
}

const get = (path: string) => memberHttp.json<unknown>('GET', path);

/**
 * A thread's replies, read page by page into the local database when it is expanded (the dialog
 * shows them from there). The first page is read again after the list was loaded whole, which
 * drops the replies it held (`loadedAt`).
 */
export function useThread(videoId: string, parentId: string, loadedAt: number | null): ThreadState {
  const engine = useSyncEngine();
  const [expanded, setExpanded] = useState(false);
  const [state, setState] = useState<{ loading: boolean; failed: boolean; next: string | null }>({ loading: false, failed: false, next: null });
  // Answers for an earlier load of the list, or after the thread was closed, are dropped.
  const generation = useRef(0);

  const fetchPage = useCallback(
    (cursor: string | null) => {
      if (!engine) return;
      const gen = generation.current;
      setState((s) => ({ ...s, loading: true, failed: false }));
      loadThreadPage(getClientDb(), engine.userId, { videoId, parentId }, cursor, get).then(
        (next) => gen === generation.current && setState({ loading: false, failed: false, next }),
        () => gen === generation.current && setState((s) => ({ ...s, loading: false, failed: true })),
      );
    },
    [engine, videoId, parentId],
  );

  useEffect(() => {
    if (!expanded) return;
    generation.current += 1;
    fetchPage(null);
  }, [expanded, loadedAt, fetchPage]);

  const collapse = useCallback(() => {
    generation.current += 1;
    setExpanded(false);
    setState({ loading: false, failed: false, next: null });
  }, []);
  const next = state.next;
  const loadMore = useCallback(() => {
    if (next && !state.loading) fetchPage(next);
  }, [fetchPage, next, state.loading]);

  const retry = useCallback(() => fetchPage(next), [fetchPage, next]);
  return { expanded, loading: state.loading, failed: state.failed, hasMore: next !== null, expand: () => setExpanded(true), collapse, loadMore, retry };
}
