import { useEffect, useState } from 'react';
import type { ApiError } from '#client/lib/http/api-error';
import { getPeopleRead, peoplePath, readError, type CreatorProfile } from '#client/lib/people';
import { useLocalProfile } from '#client/sync/useLocalProfile';
import { useFollowState } from '#client/ui/people/useFollow';
import { countsOf, type CreatorCounts } from './counts';

export interface Creator {
  profile: CreatorProfile | null;
  error: ApiError | null;
  /** Their counts as this device knows them (a queued follow counted at once). */
  counts: CreatorCounts | null;
  own: boolean;
  retry(): void;
}

/**
 * GET /api/people/{handle} (kept by the service worker for offline), with what the device knows
 * better: the member's own follow of them from the `follows` store, and on their own page their
 * counters from the synced profile (updated live when someone follows them).
 */
export function useCreator(handle: string): Creator {
  const [read, setRead] = useState<{ handle: string; profile: CreatorProfile | null; error: ApiError | null }>({ handle, profile: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setRead((r) => (r.handle === handle ? { ...r, error: null } : { handle, profile: null, error: null }));
    getPeopleRead<CreatorProfile>(peoplePath(handle)).then(
      (profile) => live && setRead({ handle, profile, error: null }),
      (e: unknown) => live && setRead((r) => ({ ...r, error: readError(e) })),
    );
    return () => {
      live = false;
    };
  }, [handle, attempt]);

  const profile = read.handle === handle ? read.profile : null;
  const mine = useLocalProfile();
  const own = !!profile && !!mine && mine.id === profile.id;
  const follow = useFollowState(profile && !own ? profile.id : null);
  return {
    profile,
    error: read.handle === handle ? read.error : null,
    counts: profile ? countsOf(profile, own ? mine : null, follow?.following) : null,
    own,
    retry: () => setAttempt((n) => n + 1),
  };
}
