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
  return gate === 'loading' ? <Spinner fullScreen label="Loading your session" /> : <Navigate to="/login" replace />;
}
