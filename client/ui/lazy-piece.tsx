import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { toast } from './toast';

/**
 * A piece of a screen loaded on first use (a dialog), whose chunk may not arrive: the device went
 * offline before the service worker kept it (a first visit), or a new deploy took an old chunk away.
 * React.lazy keeps a failed import for good; `retry` starts a new one for the next time it is shown.
 */
export function lazyPiece<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let Loaded = lazy(load);
  function Piece(props: P) {
    return <Loaded {...props} />;
  }
  return {
    Piece,
    retry: () => {
      Loaded = lazy(load);
    },
  };
}

interface BoundaryProps {
  /** What could not be opened, for the toast: "Could not open {what}". */
  what: string;
  /** Called once the failure is shown: close the piece (and `retry` its load). */
  onFailed(): void;
  children: ReactNode;
}

/**
 * Around a lazyPiece: a piece that fails to load (or to render) says so in a toast and is closed,
 * where the error would otherwise reach the route and replace the whole screen.
 */
export class PieceBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(): void {
    const description = navigator.onLine ? 'Please try again.' : "You're offline. Try again when you are back online.";
    toast.error(`Could not open ${this.props.what}`, { description });
    this.props.onFailed();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
