import { useCallback, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useRouter } from '@tanstack/react-router';
import { BellIcon, CloseIcon } from '#client/ui/icons';
import { useAppBadge } from '../api/app-badge';
import { useKeepPushSubscription } from '../api/keep-subscription';
import { useMarkRead, useNotifications } from '../api/useNotifications';
import { NotificationList } from './NotificationList';
import '../notifications.css';

/** The member header's bell (docs/notifications.md, "The bell"): the unread count, and the list. */
export function NotificationBell() {
  const { items, unread, userId } = useNotifications();
  const markRead = useMarkRead();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  // The ones that were unread when the list opened keep their mark while it stays open, although
  // opening it has already marked them read.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  useAppBadge(items ? unread : null);
  useKeepPushSubscription(userId);

  const onOpenChange = useCallback(
    (next: boolean) => {
      setOpen(next);
      if (!next) return;
      const ids = (items ?? []).filter((n) => !n.read).map((n) => n.id);
      setFresh(new Set(ids));
      void markRead(ids);
    },
    [items, markRead],
  );

  const onPick = useCallback(
    (id: string, url: string) => {
      if (items?.some((n) => n.id === id && !n.read)) void markRead([id]);
      setOpen(false);
      // The feed scrolls to a card's link itself, also when it is open already.
      router.history.push(url);
    },
    [items, markRead, router],
  );

  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="nav-link bell-button" aria-label={label} title="Notifications">
        <BellIcon />
        {unread > 0 ? (
          <b className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </b>
        ) : null}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay notifications-overlay" />
        <Dialog.Content className="dialog-content notifications-panel">
          <div className="dialog-head">
            <Dialog.Title>Notifications</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Likes, comments and news about your videos, newest first.</Dialog.Description>
          <NotificationList items={items} fresh={fresh} onPick={onPick} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
