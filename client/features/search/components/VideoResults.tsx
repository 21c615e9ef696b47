import { Link } from '@tanstack/react-router';
import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from '#client/ui/icons';

interface Props {
  videos: FeedItem[];
  onOpen(video: FeedItem): void;
  label: string;
  /** The list the full-screen viewer walks (`search:{q}`): a row is then a link to /watch/{id}. */
  watchList?: string;
}

/** Videos found, as compact rows (poster, title, creator); a row opens the full-screen viewer (or, without `watchList`, the feed's card in a dialog). */
export function VideoResults({ videos, onOpen, label, watchList }: Props) {
  return (
    <ul className="video-results" aria-label={label}>
      {videos.map((v) => (
        <li key={v.id}>
          {watchList ? (
            <Link to="/watch/$videoId" params={{ videoId: v.id }} search={{ list: watchList }} className="video-result" style={{ textDecoration: 'none' }}>
              <ResultText video={v} />
            </Link>
          ) : (
            <button type="button" className="video-result" onClick={() => onOpen(v)}>
              <ResultText video={v} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function ResultText({ video: v }: { video: FeedItem }) {
  return (
    <>
      <span className="video-result-poster" aria-hidden="true">
        {v.poster_url ? <img src={v.poster_url} alt="" loading="lazy" /> : null}
        <PlayIcon size={18} />
      </span>
      <span className="video-result-text">
        <span className="video-result-title">{v.title}</span>
        <span className="muted video-result-creator">
          {v.user_name}
          {v.user_handle ? ` · @${v.user_handle}` : ''}
        </span>
      </span>
    </>
  );
}
