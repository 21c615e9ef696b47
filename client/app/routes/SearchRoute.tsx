import { useCallback } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import type { SearchType } from '#sync/rest-api/discovery';
import { SearchPage } from '../../features/search/SearchPage';

/** /search: the search feature's screen. */
export function SearchRoute() {
  const { q = '', type = 'people' } = useSearch({ from: '/member/search' });
  const navigate = useNavigate();
  // The address follows the box (replacing, not adding, history entries), so Back returns to these results.
  const onChange = useCallback(
    (query: string, t: SearchType) =>
      void navigate({ to: '/search', search: { ...(query ? { q: query } : {}), ...(t === 'people' ? {} : { type: t }) }, replace: true }),
    [navigate],
  );
  return <SearchPage initialQuery={q} initialType={type} onChange={onChange} />;
}
