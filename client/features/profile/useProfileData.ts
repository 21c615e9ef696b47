import { useSession } from '#client/lib/session';
import { useProfile, useUpdateProfileName } from './api';

/** The member's profile from the local database, or the session's copy before the first sync. */
export function useProfileData(): { name: string; email: string; pending: boolean } | null {
  const s = useSession();
  const local = useProfile();
  if (s.status !== 'signedIn') return null;
  if (local) return { name: local.name, email: local.email, pending: local.pending };
  return { name: s.user.name, email: s.user.email, pending: false };
}

export function useSaveProfileName(): (name: string) => Promise<void> {
  return useUpdateProfileName();
}
