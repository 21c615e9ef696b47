import { SEARCH_QUERY_MAX, type SearchType } from '#sync/rest-api/discovery';
import type { ApiError } from '#client/lib/http/api-error';
import { readError } from '#client/lib/people';

/** How long typing must pause before a search is sent: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface SearchPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** Reads one page of GET /api/search; rejects with the ApiError of a refusal, or the abort. */
export type SearchFetch = (path: string, signal: AbortSignal) => Promise<SearchPage<unknown>>;

export interface SearchState {
  /** The query and type these results answer ('' before any). */
  query: string;
  type: SearchType;
  items: unknown[];
  next: string | null;
  /** A page is on its way (the first, or the next one). */
  loading: boolean;
  error: ApiError | null;
}

// What a member types before a handle or a tag out of habit: the results are handles and tags without it.
const MARK: Partial<Record<SearchType, RegExp>> = { people: /^@+/, hashtags: /^#+/ };

/** The query as it is sent: trimmed, without a leading @ (people) or # (hashtags), and '' when it is nothing a search can be. */
export function searchable(raw: string, type: SearchType): string {
  const q = raw
    .trim()
    .replace(MARK[type] ?? /^$/, '')
    .trim();
  return [...q].length > SEARCH_QUERY_MAX ? '' : q;
}

export function searchPath(q: string, type: SearchType, cursor: string | null): string {
  const base = `/api/search?q=${encodeURIComponent(q)}&type=${type}`;
  return cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base;
}

/** Tells results apart when a next page repeats one (a person or video by id, a tag by itself). */
const keyOf = (item: unknown): string => {
  const o = item as { id?: unknown; tag?: unknown };
  return String(o.id ?? o.tag);
};

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

/**
 * Search as the member types: a query is sent once typing pauses (SEARCH_DEBOUNCE_MS), and a newer
 * query or type aborts the request of the older one, so a late answer never replaces a newer one.
 * Plain TypeScript under the React hook (useSearch.ts), so its timing is tested without a browser.
 */
export class SearchRunner {
  private state: SearchState;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: AbortController | null = null;

  constructor(
    private readonly fetchPage: SearchFetch,
    private readonly onState: (state: SearchState) => void,
    private readonly delayMs = SEARCH_DEBOUNCE_MS,
  ) {
    this.state = { query: '', type: 'people', items: [], next: null, loading: false, error: null };
  }

  /** Searches `raw` in `type` after the pause; an empty query clears the results at once. */
  search(raw: string, type: SearchType): void {
    const q = searchable(raw, type);
    this.cancel();
    if (!q) {
      this.set({ query: '', type, items: [], next: null, loading: false, error: null });
      return;
    }
    // The results shown stay until the new ones come, unless they answer another type.
    this.set({ ...this.state, loading: true, error: null, ...(type === this.state.type ? {} : { query: q, type, items: [], next: null }) });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fetch(q, type, null);
    }, this.delayMs);
  }

  /** The next page of the results shown, if there is one and none is on its way. */
  loadMore(): void {
    const { query, type, next, loading } = this.state;
    if (!query || !next || loading) return;
    this.set({ ...this.state, loading: true, error: null });
    this.fetch(query, type, next);
  }

  /** Stops the pending search and the request in flight (the screen closes). */
  dispose(): void {
    this.cancel();
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.inFlight?.abort();
    this.inFlight = null;
  }

  private fetch(q: string, type: SearchType, cursor: string | null): void {
    const controller = new AbortController();
    this.inFlight = controller;
    this.fetchPage(searchPath(q, type, cursor), controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        this.inFlight = null;
        const before = cursor ? this.state.items : [];
        const seen = new Set(before.map(keyOf));
        const items = [...before, ...page.items.filter((i) => !seen.has(keyOf(i)))];
        this.set({ query: q, type, items, next: page.next_cursor, loading: false, error: null });
      },
      (e: unknown) => {
        if (controller.signal.aborted || isAbort(e)) return;
        this.inFlight = null;
        this.set({ ...this.state, query: q, type, ...(cursor ? {} : { items: [], next: null }), loading: false, error: readError(e) });
      },
    );
  }

  private set(state: SearchState): void {
    this.state = state;
    this.onState(state);
  }
}
