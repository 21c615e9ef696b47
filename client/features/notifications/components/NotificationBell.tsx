import { useCallback, useEffect, useRef, useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { BellIcon } from '#client/ui/icons';
import { lazyPiece, PieceBoundary } from '#client/ui/lazy-piece';
import { usePieceDialog } from '#client/ui/useDialogTarget';
import { afterFirstScreen } from '#client/lib/after-first-screen';
import { useAppBadge } from '../api/app-badge';
import { useKeepPushSubscription } from '../api/keep-subscription';
import { useMarkRead, useNotifications } from '../api/useNotifications';
import type { NotificationPanelProps } from './NotificationPanel';
import '../notifications.css';

const loadPanel = () => import('./NotificationPanel').then((m) => ({ default: m.NotificationPanel }));
const { Piece: NotificationPanel, retry: retryNotificationPanel } = lazyPiece<NotificationPanelProps>(loadPanel);

/** The member header's bell (docs/notifications.md, "The bell"): the unread count, and the list. */
export function NotificationBell() {
  const { items, unread, userId } = useNotifications();
  const markRead = useMarkRead();
  const router = useRouter();
  const { open, used, setOpen, onFailed } = usePieceDialog(retryNotificationPanel);
  const bell = useRef<HTMLButtonElement>(null);
  // The ones that were unread when the list opened keep their mark while it stays open, although
  // opening it has already marked them read.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  useAppBadge(items ? unread : null);
  useKeepPushSubscription(userId);
  // The list's code comes once the first screen is drawn: in before the first tap on the bell.
  useEffect(() => afterFirstScreen(() => void loadPanel().catch(() => undefined)), []);

  const onOpenChange = useCallback(
    (next: boolean) => {
      setOpen(next);
      if (!next) return;
      const ids = (items ?? []).filter((n) => !n.read).map((n) => n.id);
      setFresh(new Set(ids));
      void markRead(ids);
    },
    [items, markRead, setOpen],
  );

  const onPick = useCallback(
    (id: string, url: string) => {
      if (items?.some((n) => n.id === id && !n.read)) void markRead([id]);
      setOpen(false);
      // The feed scrolls to a card's link itself, also when it is open already.
      router.history.push(url);
    },
    [items, markRead, router, setOpen],
  );

  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <>
      <button
        ref={bell}
        type="button"
        className="nav-link bell-button"
        aria-label={label}
        title="Notifications"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => onOpenChange(true)}
      >
        <BellIcon />
        {unread > 0 ? (
          <b className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </b>
        ) : null}
      </button>
      {used ? (
        <PieceBoundary what="your notifications" onFailed={onFailed}>
          <NotificationPanel open={open} onOpenChange={onOpenChange} items={items} fresh={fresh} onPick={onPick} opener={bell} />
        </PieceBoundary>
      ) : null}
    </>
  );
}
