import { Link } from '@tanstack/react-router';
import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from '#client/ui/icons';

interface Props {
  videos: FeedItem[];
  label: string;
  /** The list the full-screen viewer walks from the tapped row (`search:{q}`). */
  watchList: string;
}

/** Videos found, as compact rows (poster, title, creator); a row is a link to the full-screen viewer. */
export function VideoResults({ videos, label, watchList }: Props) {
  return (
    <ul className="video-results" aria-label={label}>
      {videos.map((v) => (
        <li key={v.id}>
          <Link to="/watch/$videoId" params={{ videoId: v.id }} search={{ list: watchList }} className="video-result" style={{ textDecoration: 'none' }}>
            <ResultText video={v} />
          </Link>
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
