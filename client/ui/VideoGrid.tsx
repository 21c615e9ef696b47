import { Link } from '@tanstack/react-router';
import type { FeedItem } from '#sync/protocol/messages';
import { PlayIcon } from './icons';
import './video-grid.css';

interface Props {
  videos: FeedItem[];
  /** The list the full-screen viewer walks from the tapped tile (`creator:{handle}`, `tag:{tag}:{sort}`). */
  watchList: string;
}

/**
 * Videos as tiles of their posters (a creator's, a hashtag's); a tile is a link to the full-screen
 * viewer. The title is plain text: a tile is one control, and a link inside one is no link.
 */
export function VideoGrid({ videos, watchList }: Props) {
  return (
    <ul className="video-grid" aria-label="Videos">
      {videos.map((v) => (
        <li key={v.id}>
          <Link to="/watch/$videoId" params={{ videoId: v.id }} search={{ list: watchList }} className="grid-tile" style={{ textDecoration: 'none' }}>
            <Tile video={v} />
          </Link>
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
