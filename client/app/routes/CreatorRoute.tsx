import { useParams } from '@tanstack/react-router';
import { CreatorPage } from '../../features/people/CreatorPage';
import { VideoDialog } from '../../features/feed/components/VideoDialog';

/** /@handle: the people feature's page, playing a video with the feed's card (features never import each other). */
export function CreatorRoute() {
  const { handle } = useParams({ from: '/member/@{$handle}' });
  return <CreatorPage key={handle} handle={handle} VideoDialog={VideoDialog} />;
}
