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
  sample: ({ notificationIds }) => ({ ids: notificationIds }),
  run: async (tx, { ids }) => {
    let changed = 0;
    // Scoped to the caller in the update itself: another member's id matches no row.
    for (const id of new Set(ids)) if ((await tx.notifications.update({ id, user_id: tx.userId, read_at: null }, { read_at: tx.now })) !== false) changed++;
    return changed ? { changed } : null;
  },
});
