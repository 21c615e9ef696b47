import { Link } from '@tanstack/react-router';
import { PlayIcon } from '#client/ui/icons';
import type { FeedCard } from '../components/types';

/**
 * A card's "Watch" (the card, an article named by its title, says which video): opens the full-screen
 * viewer at this video over `list`. The feed's entry is first marked with the card (/home#video-ID),
 * so Back lands on it again however far the member swiped.
 */
export function WatchLink({ video, list }: { video: FeedCard; list: string }) {
  return (
    <Link
      to="/watch/$videoId"
      params={{ videoId: video.id }}
      search={{ list }}
      className="action"
      style={{ textDecoration: 'none' }}
      onClick={() => window.history.replaceState(window.history.state, '', `#video-${encodeURIComponent(video.id)}`)}
    >
      <PlayIcon size={18} /> <span>Watch</span>
    </Link>
  );
}
