import { CloudOffIcon, ClockIcon } from '#client/ui/icons';
import { useAppStatus } from './useAppStatus';

function changes(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** The unobtrusive offline banner and pending-changes count. */
export function StatusBanner() {
  const { online, pendingCount, syncing } = useAppStatus();
  if (online && pendingCount === 0) return <div role="status" aria-live="polite" className="sr-only" />;
  return (
    <div role="status" aria-live="polite" className={`status-banner${online ? '' : ' offline'}`}>
      {online ? null : (
        <span className="status-item">
          <CloudOffIcon size={16} /> You&apos;re offline. Changes are saved and will sync when you reconnect.
        </span>
      )}
      {pendingCount > 0 ? (
        <span className="status-item pending-count">
          <ClockIcon size={16} /> {changes(pendingCount)} waiting to sync{online && syncing ? ' (syncing...)' : ''}
        </span>
      ) : null}
    </div>
  );
}
