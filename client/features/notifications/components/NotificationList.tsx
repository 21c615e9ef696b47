import { Spinner } from '#client/ui/Spinner';
import { isoDate } from '#client/lib/format';
import { notificationBody, notificationTitle, notificationUrl } from '#sync/protocol/notification-text';
import { BellIcon } from '#client/ui/icons';
import { timeAgo } from '../relative-time';
import type { LocalNotification } from '../api/useNotifications';

interface Props {
  items: LocalNotification[] | undefined;
  /** Unread when the list opened: marked as new. */
  fresh: ReadonlySet<string>;
  onPick(id: string, url: string): void;
}

/** The list in the bell's dialog: newest first, each a button that goes where the notification is about. */
export function NotificationList({ items, fresh, onPick }: Props) {
  if (!items) return <Spinner label="Loading notifications" />;
  if (items.length === 0) {
    return (
      <div className="notifications-empty">
        <BellIcon size={32} />
        <p className="notifications-empty-title">No notifications yet</p>
        <p className="muted">Likes and comments on your videos, and news about them, show up here.</p>
      </div>
    );
  }
  const now = Date.now();
  return (
    <ul className="notifications-list" aria-label="Notifications">
      {items.map((n) => {
        const isNew = fresh.has(n.id) || !n.read;
        const body = notificationBody(n);
        return (
          <li key={n.id}>
            <button type="button" className={isNew ? 'notification unread' : 'notification'} onClick={() => onPick(n.id, notificationUrl(n))}>
              {isNew ? <span className="unread-dot" aria-hidden="true" /> : null}
              <span className="notification-text">
                {isNew ? <span className="sr-only">New: </span> : null}
                <span className="notification-title">{notificationTitle(n)}</span>
                {body ? <span className="notification-body">{body}</span> : null}
                <time dateTime={isoDate(n.updated_at)}>{timeAgo(n.updated_at, now)}</time>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
