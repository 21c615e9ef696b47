import { useParams } from '@tanstack/react-router';
import { CreatorPage } from '../../features/people/CreatorPage';

/** /@handle: the people feature's page. */
export function CreatorRoute() {
  const { handle } = useParams({ from: '/member/@{$handle}' });
  return <CreatorPage key={handle} handle={handle} />;
}
