import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from './icons';
import './video-grid.css';

interface Props {
  videos: FeedItem[];
  onOpen(video: FeedItem): void;
}

/**
 * Videos as tiles of their posters (a creator's, a hashtag's); a tile opens the player. The title is
 * plain text: a tile is one button, and a link inside a button is no link.
 */
export function VideoGrid({ videos, onOpen }: Props) {
  return (
    <ul className="video-grid" aria-label="Videos">
      {videos.map((v) => (
        <li key={v.id}>
          <button type="button" className="grid-tile" onClick={() => onOpen(v)}>
            {v.poster_url ? <img src={v.poster_url} alt="" loading="lazy" /> : <span className="grid-poster-empty" aria-hidden="true" />}
            <PlayIcon size={28} className="grid-play" />
            <span className="grid-title">{v.title}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
