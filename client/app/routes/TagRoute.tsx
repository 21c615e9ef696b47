import { useParams } from '@tanstack/react-router';
import { HashtagPage } from '../../features/hashtags/HashtagPage';
import { VideoDialog } from '../../features/feed/components/VideoDialog';

/** /tag/{tag}: the hashtags feature's page, playing a video with the feed's card (features never import each other). */
export function TagRoute() {
  const { tag } = useParams({ from: '/member/tag/$tag' });
  return <HashtagPage key={tag} tag={tag} VideoDialog={VideoDialog} />;
}
