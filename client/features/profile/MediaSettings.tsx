import { toast } from 'sonner';
import { Spinner } from '#client/ui/Spinner';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { plural } from '#client/lib/format';
import { setMediaPreferences, useMediaPreferences } from '#client/lib/media-preferences';
import { clearOfflineVideos } from '#client/lib/offline-media';
import { Switch } from './Switch';
import { formatMegabytes, formatQuota, useStorageUsage, type StorageUsageState } from './useStorageUsage';

/** "Video playback and storage" on /profile: this device's media preferences and its offline copies. */
export function MediaSettings() {
  const prefs = useMediaPreferences();
  return (
    <section className="profile-section" aria-labelledby="media-settings-title">
      <h2 id="media-settings-title">Video playback and storage</h2>
      <p className="muted">These settings apply to this device only.</p>
      <div className="card media-settings">
        <Switch
          label="Data saver"
          caption="Plays videos at 360p and does not load ahead."
          checked={prefs.dataSaver}
          onChange={(dataSaver) => setMediaPreferences({ dataSaver })}
        />
        <Switch
          label="Download new videos for offline (Wi-Fi only)"
          caption="Keeps the newest videos on this device while you are on Wi-Fi, so you can watch them offline."
          checked={prefs.downloadAhead}
          onChange={(downloadAhead) => setMediaPreferences({ downloadAhead })}
        />
        <OfflineStorage />
      </div>
    </section>
  );
}

function OfflineStorage() {
  const { state, refresh } = useStorageUsage();
  const { busy, run } = useSubmitOnce(async () => {
    try {
      await clearOfflineVideos();
      toast.success('Offline videos cleared');
    } catch (e) {
      toast.error('Clear Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
    }
    await refresh();
  });
  const nothingSaved = state.status === 'ready' && state.usage.savedVideos === 0;

  return (
    <div className="offline-storage" aria-labelledby="offline-storage-title" role="group">
      <h3 id="offline-storage-title">Offline storage</h3>
      <StorageFigures state={state} />
      <button type="button" className="button block" onClick={() => void run()} disabled={busy || nothingSaved} aria-busy={busy}>
        {busy ? 'Clearing...' : 'Clear offline videos'}
      </button>
    </div>
  );
}

function StorageFigures({ state }: { state: StorageUsageState }) {
  if (state.status === 'loading') return <Spinner label="Checking storage" />;
  if (state.status === 'failed') return <p className="muted">This browser does not say how much storage is used.</p>;
  const { usedBytes, quotaBytes, savedVideos, persistent } = state.usage;
  return (
    <dl className="storage-figures" aria-live="polite">
      <dt>Used on this device</dt>
      <dd>
        {formatMegabytes(usedBytes)}
        {quotaBytes > 0 ? <span className="muted"> of {formatQuota(quotaBytes)}</span> : null}
      </dd>
      <dt>Saved videos</dt>
      <dd>{plural(savedVideos, 'video', 'videos')}</dd>
      <dt>Persistent storage</dt>
      <dd>{persistent ? 'On: the browser keeps saved videos when space runs low.' : 'Off: the browser may remove saved videos when space runs low.'}</dd>
    </dl>
  );
}
