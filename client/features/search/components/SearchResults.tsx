import type { MouseEvent } from 'react';
import { Link } from '@tanstack/react-router';
import type { HashtagResult, PersonResult } from '#sync/rest-api/discovery';
import type { FeedItem } from '#sync/protocol/messages';
import { plural } from '#client/lib/format';
import { Spinner } from '#client/ui/Spinner';
import { PersonList } from '#client/ui/people/PersonList';
import type { Search } from '../api/useSearch';
import { VideoResults } from './VideoResults';

interface Props {
  search: Search;
  meId: string;
  /** A result was opened: the search is one the member meant (kept among the recent ones). */
  onOpen(): void;
}

/** The results of the tab's type, page by page, with their loading, empty and error states. */
export function SearchResults({ search, meId, onOpen }: Props) {
  const { items, error, loading, query } = search;
  if (items.length === 0) {
    if (loading) return <Spinner label="Searching" />;
    if (error) return <SearchProblem status={error.status} />;
    return <p className="empty-text">No results for “{query}”</p>;
  }
  // A link or a video opened from the results: this search is one to keep.
  const onClickCapture = (e: MouseEvent) => {
    if ((e.target as Element).closest('a')) onOpen();
  };
  return (
    <div className="search-results" onClickCapture={onClickCapture} aria-busy={loading}>
      {search.type === 'people' ? <PersonList people={items as PersonResult[]} meId={meId} label={`People matching ${query}`} /> : null}
      {search.type === 'videos' ? <VideoResults videos={items as FeedItem[]} label={`Videos matching ${query}`} watchList={`search:${query}`} /> : null}
      {search.type === 'hashtags' ? <HashtagResults tags={items as HashtagResult[]} label={`Hashtags matching ${query}`} /> : null}
      {search.next ? (
        <button type="button" className="button secondary show-more" onClick={search.loadMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
      {error ? (
        <p className="empty-text" role="alert">
          Could not load more results.
        </p>
      ) : null}
    </div>
  );
}

function HashtagResults({ tags, label }: { tags: HashtagResult[]; label: string }) {
  return (
    <ul className="hashtag-results" aria-label={label}>
      {tags.map((t) => (
        <li key={t.tag}>
          <Link to="/tag/$tag" params={{ tag: t.tag }} className="hashtag-row">
            <span className="hashtag-name">#{t.tag}</span>
            <span className="muted"> · {plural(t.videos_count, 'video', 'videos')}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function SearchProblem({ status }: { status: number }) {
  return (
    <p className="empty-text" role="alert">
      {status === 0 ? 'Search needs a connection. Check your connection and try again.' : 'Could not search. Please try again.'}
    </p>
  );
}
