import { ClockIcon, CloseIcon } from '#client/ui/icons';
import type { RecentSearches as Recent } from '../api/useRecentSearches';

interface Props {
  recent: Recent;
  /** Searches it again. */
  onPick(query: string): void;
}

/** The member's last searches on this device, newest first: tap one to search it again. */
export function RecentSearches({ recent, onPick }: Props) {
  if (recent.list.length === 0) return <p className="empty-text">Search for people, videos and hashtags.</p>;
  return (
    <section className="recent-searches" aria-labelledby="recent-searches-title">
      <div className="recent-head">
        <h2 id="recent-searches-title">Recent searches</h2>
        <button type="button" className="link-button" onClick={recent.clear}>
          Clear all
        </button>
      </div>
      <ul aria-labelledby="recent-searches-title">
        {recent.list.map((q) => (
          <li key={q} className="recent-row">
            <button type="button" className="recent-pick" onClick={() => onPick(q)}>
              <ClockIcon size={16} /> <span>{q}</span>
            </button>
            <button type="button" className="icon-button" aria-label={`Remove ${q} from recent searches`} onClick={() => recent.forget(q)}>
              <CloseIcon size={16} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
