import { useState } from 'react';
import type { SearchType } from '#sync/rest-api/discovery';
import { useSession } from '#client/lib/session';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { useSearch } from './api/useSearch';
import { useRecentSearches } from './api/useRecentSearches';
import { useSearchOnline } from './api/useSearchOnline';
import { SearchField } from './components/SearchField';
import { RecentSearches } from './components/RecentSearches';
import { SearchResults } from './components/SearchResults';
import './search.css';

const TABS: Array<TabDef<SearchType>> = [
  { key: 'people', label: 'People' },
  { key: 'videos', label: 'Videos' },
  { key: 'hashtags', label: 'Hashtags' },
];

interface Props {
  /** The search in the address (/search?q=…&type=…), so going back to it shows the same results. */
  initialQuery: string;
  initialType: SearchType;
  /** Called as the member types or picks a tab, to keep the address in step. */
  onChange(query: string, type: SearchType): void;
}

/** The search screen at /search (docs/pwa.md, "Discovery"): people, videos and hashtags as the member types. */
export function SearchPage({ initialQuery, initialType, onChange }: Props) {
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : '';
  const [query, setQuery] = useState(initialQuery);
  const [type, setType] = useState<SearchType>(initialType);
  const online = useSearchOnline();
  const search = useSearch(online ? query : '', type);
  const recent = useRecentSearches(userId);

  const change = (q: string, t: SearchType) => {
    setQuery(q);
    setType(t);
    onChange(q, t);
  };
  const empty = query.trim() === '';

  return (
    <section className="search-page" aria-labelledby="search-title">
      <h1 id="search-title" className="sr-only">
        Search
      </h1>
      <SearchField value={query} onChange={(q) => change(q, type)} onSubmit={() => recent.remember(query)} />
      <Tabs<SearchType> className="search-tabs" tabs={TABS} selected={type} onSelect={(t) => change(query, t)} label="What to search">
        {!online ? (
          <p className="search-offline" role="status">
            Search needs a connection. You&apos;re offline.
          </p>
        ) : null}
        {online && !empty ? (
          <SearchResults search={search} meId={userId} onOpen={() => recent.remember(query)} />
        ) : (
          <RecentSearches recent={recent} onPick={(q) => change(q, type)} />
        )}
      </Tabs>
    </section>
  );
}
