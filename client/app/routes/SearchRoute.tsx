import { useCallback } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import type { SearchType } from '#sync/rest-api/discovery';
import { SearchPage } from '../../features/search/SearchPage';
import { VideoDialog } from '../../features/feed/components/VideoDialog';

/** /search: the search feature's screen, playing a video it found with the feed's card (features never import each other). */
export function SearchRoute() {
  const { q = '', type = 'people' } = useSearch({ from: '/member/search' });
  const navigate = useNavigate();
  // The address follows the box (replacing, not adding, history entries), so Back returns to these results.
  const onChange = useCallback(
    (query: string, t: SearchType) =>
      void navigate({ to: '/search', search: { ...(query ? { q: query } : {}), ...(t === 'people' ? {} : { type: t }) }, replace: true }),
    [navigate],
  );
  return <SearchPage initialQuery={q} initialType={type} onChange={onChange} VideoDialog={VideoDialog} />;
}
