import type { RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '#client/ui/icons';
import { focusBackTo } from '#client/ui/lazy-piece';
import type { LocalNotification } from '../api/useNotifications';
import { NotificationList } from './NotificationList';

export interface NotificationPanelProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  items: LocalNotification[] | undefined;
  /** The ones unread when the list opened: they keep their mark while it stays open. */
  fresh: ReadonlySet<string>;
  onPick(id: string, url: string): void;
  /** The bell, where focus goes back when the list closes. */
  opener: RefObject<HTMLButtonElement | null>;
}

/**
 * The bell's list (docs/notifications.md, "The bell"), loaded on the first tap on the bell (with
 * Radix): the header's first screen has only the bell and its count.
 */
export function NotificationPanel({ open, onOpenChange, items, fresh, onPick, opener }: NotificationPanelProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay notifications-overlay" />
        <Dialog.Content className="dialog-content notifications-panel" onCloseAutoFocus={focusBackTo(opener)}>
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
