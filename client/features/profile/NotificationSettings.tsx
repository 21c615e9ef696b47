import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Spinner } from '#client/ui/Spinner';
import { useOnline } from '#client/lib/useOnline';
import type { NotificationPref } from '#sync/protocol/notifications';
import { Switch } from './Switch';
import { currentSubscription, pushSupported, subscribeThisDevice, unsubscribeThisDevice } from '#client/lib/push-subscription';
import { useNotificationPrefs } from './api/useNotificationPrefs';

const CHOICES: Array<{ pref: NotificationPref; label: string }> = [
  { pref: 'likes', label: 'Likes and new followers' },
  { pref: 'comments', label: 'Comments on my videos' },
  { pref: 'processing', label: 'Video processing finished or failed' },
  { pref: 'prizes', label: 'Prize results' },
];

/** "Notifications" on /profile (docs/notifications.md): push on this device, and which kinds are sent. */
export function NotificationSettings() {
  const online = useOnline();
  return (
    <section className="profile-section" aria-labelledby="notification-settings-title">
      <h2 id="notification-settings-title">Notifications</h2>
      <p className="muted">The bell lists every notification; these choices decide which ones reach your devices.</p>
      <div className="card media-settings">
        {pushSupported() ? <ThisDevice online={online} /> : <p className="muted">This browser cannot show notifications.</p>}
        <Choices online={online} />
      </div>
    </section>
  );
}

type DeviceState = { status: 'loading' } | { status: 'ready'; sub: PushSubscription | null };

function ThisDevice({ online }: { online: boolean }) {
  const [state, setState] = useState<DeviceState>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [permission, setPermission] = useState(() => Notification.permission);

  // The blocked note sends the member to the browser's settings: their answer shows when they come back.
  useEffect(() => {
    const reread = () => setPermission(Notification.permission);
    document.addEventListener('visibilitychange', reread);
    return () => document.removeEventListener('visibilitychange', reread);
  }, []);

  useEffect(() => {
    let live = true;
    currentSubscription().then(
      (sub) => live && setState({ status: 'ready', sub }),
      () => live && setState({ status: 'ready', sub: null }),
    );
    return () => {
      live = false;
    };
  }, []);

  const turn = async (on: boolean) => {
    if (state.status !== 'ready') return;
    setBusy(true);
    try {
      if (!on) {
        if (state.sub) await unsubscribeThisDevice(state.sub);
        setState({ status: 'ready', sub: null });
        return;
      }
      const asked = await Notification.requestPermission();
      setPermission(asked);
      if (asked !== 'granted') return;
      setState({ status: 'ready', sub: await subscribeThisDevice() });
    } catch (e) {
      toast.error('Notifications Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
      setState({ status: 'ready', sub: await currentSubscription().catch(() => null) });
    } finally {
      setBusy(false);
    }
  };

  if (state.status === 'loading') return <Spinner label="Checking notifications on this device" />;
  const denied = permission === 'denied';
  return (
    <div>
      <Switch
        label="Notifications on this device"
        caption={
          state.sub
            ? 'This device is told about new activity, even when Vidi is closed.'
            : 'Get told about new activity on this device, even when Vidi is closed.'
        }
        checked={state.sub !== null && !denied}
        disabled={busy || !online || (denied && !state.sub)}
        onChange={(on) => void turn(on)}
      />
      {denied ? (
        <p className="pending-note" role="status">
          Notifications are blocked for Vidi. To allow them, open the site settings (the icon beside the address, or the app&apos;s info in your phone&apos;s
          settings), set Notifications to Allow, then come back here.
        </p>
      ) : null}
    </div>
  );
}

function Choices({ online }: { online: boolean }) {
  const { state, reload, setPref } = useNotificationPrefs();
  if (state.status === 'loading') return <Spinner label="Loading your notification choices" />;
  if (state.status === 'failed') {
    return (
      <div role="alert">
        <p className="muted">
          {online ? `Your notification choices could not be loaded: ${state.message}` : 'Your notification choices load when you are online.'}
        </p>
        <button type="button" className="button" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <fieldset className="notification-choices" disabled={!online}>
      <legend>Tell me about</legend>
      {!online ? <p className="muted">You are offline: these choices can be changed when you are back online.</p> : null}
      {CHOICES.map(({ pref, label }) => (
        <label key={pref} className="checkbox-row">
          <input type="checkbox" checked={state.prefs[pref]} onChange={(e) => setPref(pref, e.currentTarget.checked)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
