import { useRef } from 'react';
import { SEARCH_QUERY_MAX } from '#sync/rest-api/discovery';
import { CloseIcon, SearchIcon } from '#client/ui/icons';

interface Props {
  value: string;
  onChange(value: string): void;
  /** Enter: the member means this search (it is kept among the recent ones). */
  onSubmit(): void;
}

/** The search box: focused on arrival, with a button that empties it and gives the focus back. */
export function SearchField({ value, onChange, onSubmit }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <form
      role="search"
      className="search-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onSubmit();
      }}
    >
      <SearchIcon className="search-form-icon" />
      <input
        ref={input}
        type="search"
        className="search-input"
        aria-label="Search people, videos and hashtags"
        placeholder="People, videos, hashtags"
        value={value}
        maxLength={SEARCH_QUERY_MAX}
        autoComplete="off"
        enterKeyHint="search"
        // The screen exists to type into: the box is where the member arrives.
        autoFocus
        onChange={(e) => onChange(e.target.value)}
      />
      {value ? (
        <button
          type="button"
          className="icon-button search-clear"
          aria-label="Clear search"
          onClick={() => {
            onChange('');
            input.current?.focus();
          }}
        >
          <CloseIcon size={18} />
        </button>
      ) : null}
    </form>
  );
}
