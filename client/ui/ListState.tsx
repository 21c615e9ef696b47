import type { ReactNode } from 'react';
import type { PagedRead } from '#client/lib/usePagedRead';
import { Spinner } from './Spinner';
import './video-grid.css';

interface Props<T> {
  read: PagedRead<T>;
  /** What the list is, for the spinner ("Loading videos"). */
  what: string;
  empty: string;
  children: ReactNode;
}

/** Loading, empty and error states of a paged list, and its "Show more". */
export function ListState<T>({ read, what, empty, children }: Props<T>) {
  if (read.loading && read.items.length === 0) return <Spinner label={`Loading ${what}`} />;
  if (read.error && read.items.length === 0) {
    return (
      <p className="empty-text" role="alert">
        {read.error.status === 0 ? `You're offline, and these ${what} were not saved on this device.` : `Could not load ${what}.`}
      </p>
    );
  }
  if (read.items.length === 0) return <p className="empty-text">{empty}</p>;
  return (
    <>
      {children}
      {read.hasMore ? (
        <button type="button" className="button secondary show-more" onClick={read.loadMore}>
          Show more
        </button>
      ) : null}
      {read.error ? (
        <p className="empty-text" role="alert">
          Could not load more {what}.
        </p>
      ) : null}
    </>
  );
}
