// Zod-free: the bell and the service worker render notifications without loading zod.
import type { NotificationItem } from './notifications';

type Describable = Pick<NotificationItem, 'kind' | 'video_id' | 'count' | 'actor_name' | 'actor_handle' | 'detail' | 'amount_paise' | 'rank'>;

/** ₹ with Indian digit grouping, paise only when there are some ("₹500", "₹1,250.50"). */
export function formatRupees(paise: number): string {
  const rupees = paise / 100;
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: Number.isInteger(rupees) ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** The sentence a notification says, the same in the list and in the push ("5 people liked your video"). */
export function notificationTitle(n: Describable): string {
  const someone = n.actor_name || 'Someone';
  switch (n.kind) {
    case 'likes':
      return n.count > 1 ? `${n.count} people liked your video` : `${someone} liked your video`;
    case 'comment':
      return `${someone} commented on your video`;
    case 'processed':
      return 'Your video is ready';
    case 'processing_failed':
      return 'Your video could not be processed';
    case 'follow':
      return `${someone} started following you`;
    case 'prize':
      return `You won ${formatRupees(n.amount_paise ?? 0)} as #${n.rank ?? 0} ${n.detail ?? ''}`.trimEnd();
  }
}

/** The second line: the video's title, the comment, the reason, a follower's @handle; empty when the title says it all. */
export function notificationBody(n: Describable): string {
  if (n.kind === 'follow') return n.actor_handle ? `@${n.actor_handle}` : '';
  return n.kind === 'prize' ? '' : (n.detail ?? '');
}

/** Where tapping it goes: the video's card in the feed, the follower's page, or the rewards page for a prize. */
export function notificationUrl(n: Describable): string {
  if (n.kind === 'follow') return n.actor_handle ? `/@${encodeURIComponent(n.actor_handle)}` : '/home';
  if (n.kind === 'prize' || !n.video_id) return '/rewards';
  return `/home#video-${encodeURIComponent(n.video_id)}`;
}
