import { Navigate, Outlet } from '@tanstack/react-router';
import { useSession } from '#client/lib/session';
import { Spinner } from '#client/ui/Spinner';

/** /login and /signup: a signed-in visitor goes to /home (docs/pwa.md, "Routes"). */
export function GuestOnly() {
  const session = useSession();
  if (session.status === 'loading') return <Spinner fullScreen label="Loading your session" />;
  if (session.status === 'signedIn') return <Navigate to="/home" replace />;
  return <Outlet />;
}

/** /home, /rewards, /profile: no signed-in user goes to /login; a spinner while the session loads. */
export function useMemberGate(): 'loading' | 'out' | 'in' {
  const session = useSession();
  return session.status === 'loading' ? 'loading' : session.status === 'signedIn' ? 'in' : 'out';
}

export function MemberGateFallback({ gate }: { gate: 'loading' | 'out' }) {
  if (gate === 'out') return <Navigate to="/login" replace />;
  // The top bar's brand paints while the session is restored: the first visit's first paint is not
  // held until the refresh answers (docs/benchmarks.md, "First visit").
  return (
    <>
      <header className="app-header">
        <div className="header-inner">
          <span className="brand">Vidi</span>
        </div>
      </header>
      <Spinner fullScreen label="Loading your session" />
    </>
  );
}
