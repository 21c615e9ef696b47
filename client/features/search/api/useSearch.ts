import { useEffect, useState } from 'react';
import type { SearchType } from '#sync/rest-api/discovery';
import { apiErrorFromResponse } from '#client/lib/http/api-error';
import { memberHttp } from '#client/lib/session';
import { SearchRunner, type SearchPage, type SearchState } from './search-runner';

/** GET /api/search through the member's client, abortable (memberHttp.json takes no signal). */
async function fetchSearchPage(path: string, signal: AbortSignal): Promise<SearchPage<unknown>> {
  const res = await memberHttp.send(path, { method: 'GET', signal });
  if (!res.ok) throw await apiErrorFromResponse(res);
  return (await res.json()) as SearchPage<unknown>;
}

export interface Search extends SearchState {
  loadMore(): void;
}

/** The results of `query` in `type` as the member types (search-runner.ts: debounced, a stale answer dropped). */
export function useSearch(query: string, type: SearchType): Search {
  const [state, setState] = useState<SearchState>({ query: '', type, items: [], next: null, loading: false, error: null });
  const [runner] = useState(() => new SearchRunner(fetchSearchPage, setState));
  useEffect(() => runner.search(query, type), [runner, query, type]);
  useEffect(() => () => runner.dispose(), [runner]);
  return { ...state, loadMore: () => runner.loadMore() };
}
