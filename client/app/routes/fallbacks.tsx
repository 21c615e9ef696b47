import { Link, type ErrorComponentProps } from '@tanstack/react-router';

export function NotFound() {
  return (
    <main className="centered-page" id="main">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <Link to="/" className="button primary">
        Go to the start page
      </Link>
    </main>
  );
}

/** A route failed to render or load (e.g. a chunk from an older deploy): offer a reload instead of a blank page. */
export function RouteError(_props: ErrorComponentProps) {
  return (
    <main className="centered-page" id="main">
      <h1>Something went wrong</h1>
      <p className="muted">This screen could not be shown. Reload to get the latest version of Vidi.</p>
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
