import { useSession } from '../auth/api';

/** Adapter over the profile data hooks (client/features/profile/api). */
export function useProfileData(): { name: string; email: string } | null {
  const s = useSession();
  return s.status === 'signedIn' ? { name: s.user.name, email: s.user.email } : null;
}

export function useSaveProfileName(): (name: string) => Promise<void> {
  return async () => {};
}
