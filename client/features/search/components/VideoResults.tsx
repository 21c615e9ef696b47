import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from '#client/ui/icons';

interface Props {
  videos: FeedItem[];
  onOpen(video: FeedItem): void;
  label: string;
}

/** Videos found, as compact rows (poster, title, creator); a row opens the feed's card in a dialog. */
export function VideoResults({ videos, onOpen, label }: Props) {
  return (
    <ul className="video-results" aria-label={label}>
      {videos.map((v) => (
        <li key={v.id}>
          <button type="button" className="video-result" onClick={() => onOpen(v)}>
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
          </button>
        </li>
      ))}
    </ul>
  );
}
