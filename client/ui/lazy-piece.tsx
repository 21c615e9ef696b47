import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { toast } from './toast';

/**
 * A piece of a screen loaded on first use (a dialog) or after the first screen (the toaster, an ad), whose chunk may not arrive: the device went
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
 * Around a lazyPiece (with its Suspense: nothing shows while it loads): a piece that fails to load
 * (or to render) says so in a toast and is closed, where the error would otherwise reach the route
 * and replace the whole screen.
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
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}

/** A dialog's onCloseAutoFocus when its opener is no Radix Trigger: focus goes back to the opener. */
export function focusBackTo(opener: { current: HTMLElement | null }): (e: Event) => void {
  return (e) => {
    e.preventDefault();
    opener.current?.focus();
  };
}

/** An optional piece whose load failed while the device seemed online tries again after this. */
const RETRY_ONLINE_MS = 30_000;

interface QuietProps {
  /** Shown in the piece's place while it loads or is missing (null: nothing). */
  fallback: ReactNode;
  /** The piece's lazyPiece `retry`: a fresh load for the next try. */
  retry(): void;
  children: ReactNode;
}

/**
 * Around a lazyPiece (with its Suspense) the screen can do without for a while (the toaster, an ad): a first visit that
 * goes offline before its service worker kept the chunk shows the screen without it, not an error
 * page in the screen's place, and loads it again when the network is back.
 */
export class LoadWhenOnline extends Component<QuietProps, { failed: boolean }> {
  override state = { failed: false };
  private timer: ReturnType<typeof setTimeout> | null = null;

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(): void {
    window.addEventListener('online', this.tryAgain, { once: true });
    // Seemingly online (the server was away, or the device had not noticed yet): try again later too.
    if (navigator.onLine) this.timer = setTimeout(this.tryAgain, RETRY_ONLINE_MS);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', this.tryAgain);
    if (this.timer) clearTimeout(this.timer);
  }

  private readonly tryAgain = (): void => {
    window.removeEventListener('online', this.tryAgain);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.props.retry();
    this.setState({ failed: false });
  };

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
