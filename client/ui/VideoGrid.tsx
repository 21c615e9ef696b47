import { Link } from '@tanstack/react-router';
import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from './icons';
import './video-grid.css';

interface Props {
  videos: FeedItem[];
  onOpen(video: FeedItem): void;
  /** The list the full-screen viewer walks (`creator:{handle}`, `tag:{tag}:{sort}`): a tile is then a link to /watch/{id}. */
  watchList?: string;
}

/**
 * Videos as tiles of their posters (a creator's, a hashtag's); a tile opens the full-screen viewer (a
 * link) or the player. The title is plain text: a tile is one control, and a link inside one is no link.
 */
export function VideoGrid({ videos, onOpen, watchList }: Props) {
  return (
    <ul className="video-grid" aria-label="Videos">
      {videos.map((v) => (
        <li key={v.id}>
          {watchList ? (
            <Link to="/watch/$videoId" params={{ videoId: v.id }} search={{ list: watchList }} className="grid-tile" style={{ textDecoration: 'none' }}>
              <Tile video={v} />
            </Link>
          ) : (
            <button type="button" className="grid-tile" onClick={() => onOpen(v)}>
              <Tile video={v} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function Tile({ video: v }: { video: FeedItem }) {
  return (
    <>
      {v.poster_url ? <img src={v.poster_url} alt="" loading="lazy" /> : <span className="grid-poster-empty" aria-hidden="true" />}
      <PlayIcon size={28} className="grid-play" />
      <span className="grid-title">{v.title}</span>
    </>
  );
}
