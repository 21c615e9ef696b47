import { Spinner } from '../../ui/Spinner';

// Stand-in while the feature that owns this route is being written in parallel; replaced when it lands.
export function AwaitingScreen() {
  return <Spinner label="Loading" />;
}
