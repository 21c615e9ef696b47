import { defineMutation } from './define-mutation';

/**
 * The member has seen these notifications (opened the list, tapped one). Only the caller's own
 * unread rows change; another member's id, an unknown id or one already read changes nothing, so a
 * replay is harmless and nobody learns which ids exist.
 */
export const markNotificationsRead = defineMutation({
  name: 'markNotificationsRead',
  args: (k) => k.z.strictObject({ ids: k.notificationIds }),
  refusedTitle: null,
  pendingOnCard: false,
  run: async (tx, { ids }) => {
    let changed = 0;
    for (const id of new Set(ids)) if ((await tx.notifications.markRead(id)) !== false) changed++;
    return changed ? { changed } : null;
  },
});
