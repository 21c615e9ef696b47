import { useCallback, useEffect, useState } from 'react';
import { getPeopleRead, peoplePath, type CreatorProfile } from '#client/lib/people';
import { ApiError } from '#client/lib/http/api-error';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { HANDLE_TAKEN_MESSAGE, handleProblem } from '#sync/protocol/handles';

const CHECK_DELAY_MS = 400;

/**
 * Why `handle` (normalized) cannot be saved, as it is typed: the shared rules at once, then, online,
 * whether another member has it (GET /api/people/{handle}). Null when it looks free; the server has
 * the final word when the change is sent.
 */
export function useHandleProblem(handle: string, current: string, meId: string | null): string | null {
  const rule = handle === current ? null : handleProblem(handle);
  const [taken, setTaken] = useState<string | null>(null);
  useEffect(() => {
    if (rule || handle === current || !navigator.onLine) return;
    let live = true;
    const timer = setTimeout(() => {
      getPeopleRead<CreatorProfile>(peoplePath(handle)).then(
        (p) => live && p.id !== meId && setTaken(handle),
        (e: unknown) => live && e instanceof ApiError && e.status === 404 && setTaken(null),
      );
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [handle, current, rule, meId]);
  return rule ?? (taken === handle ? HANDLE_TAKEN_MESSAGE : null);
}

/** Sets the member's handle (queued, shown at once); a refusal is rolled back and announced by the sync bridge. */
export function useSetHandle(): (handle: string) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (handle: string) => {
      if (!engine) return;
      await engine.mutate('setHandle', { handle });
    },
    [engine],
  );
}
