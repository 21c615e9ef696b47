import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { memberHttp } from '#client/lib/session';
import type { NotificationPrefs } from '#sync/rest-api/notifications';
import type { NotificationPref } from '#sync/protocol/notifications';

export type PrefsState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; prefs: NotificationPrefs };

/** The member's notification choices from the server; a change shows at once and is undone (with a toast) when the server refuses it. */
export function useNotificationPrefs(): { state: PrefsState; reload: () => void; setPref: (pref: NotificationPref, on: boolean) => void } {
  const [state, setState] = useState<PrefsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Saves run one after another, so the last choice is the one the server keeps.
  const queue = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    memberHttp.json<NotificationPrefs>('GET', '/api/notifications/preferences').then(
      (prefs) => live && setState({ status: 'ready', prefs }),
      (e: unknown) => live && setState({ status: 'failed', message: e instanceof Error ? e.message : 'Something went wrong' }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const setPref = useCallback((pref: NotificationPref, on: boolean) => {
    setState((s) => (s.status === 'ready' ? { status: 'ready', prefs: { ...s.prefs, [pref]: on } } : s));
    queue.current = queue.current.then(async () => {
      try {
        await memberHttp.json('PUT', '/api/notifications/preferences', { [pref]: on });
      } catch (e) {
        setState((s) => (s.status === 'ready' ? { status: 'ready', prefs: { ...s.prefs, [pref]: !on } } : s));
        toast.error('Update Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
      }
    });
  }, []);

  return { state, reload: () => setAttempt((n) => n + 1), setPref };
}
