import { useParams } from '@tanstack/react-router';
import { HashtagPage } from '../../features/hashtags/HashtagPage';

/** /tag/{tag}: the hashtags feature's page. */
export function TagRoute() {
  const { tag } = useParams({ from: '/member/tag/$tag' });
  return <HashtagPage key={tag} tag={tag} />;
}
