// Zod-free: the bell and the service worker render notifications without loading zod.
import type { NotificationItem } from './notifications';

type Describable = Pick<NotificationItem, 'kind' | 'video_id' | 'count' | 'actor_name' | 'actor_handle' | 'detail' | 'amount_paise' | 'rank' | 'comment_id'>;

/** ₹ with Indian digit grouping, paise only when there are some ("₹500", "₹1,250.50"). */
export function formatRupees(paise: number): string {
  const rupees = paise / 100;
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: Number.isInteger(rupees) ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** "5 people liked your video", else "Ravi liked your video": the likes of one thing while unread. */
const liked = (n: Describable, someone: string, what: string) => (n.count > 1 ? `${n.count} people liked your ${what}` : `${someone} liked your ${what}`);

const TITLES: Record<Describable['kind'], (n: Describable, someone: string) => string> = {
  likes: (n, someone) => liked(n, someone, 'video'),
  comment: (_n, someone) => `${someone} commented on your video`,
  processed: () => 'Your video is ready',
  processing_failed: () => 'Your video could not be processed',
  follow: (_n, someone) => `${someone} started following you`,
  reply: (_n, someone) => `${someone} replied to your comment`,
  // A mention without a comment is one in a video's title or description.
  mention: (n, someone) => `${someone} mentioned you in ${n.comment_id ? 'a comment' : 'a video'}`,
  comment_likes: (n, someone) => liked(n, someone, 'comment'),
  // The outcome as the server wrote it (server/notifications/report-resolved.ts): never who decided.
  report_resolved: (n) => n.detail ?? 'We reviewed your report',
  prize: (n) => `You won ${formatRupees(n.amount_paise ?? 0)} as #${n.rank ?? 0} ${n.detail ?? ''}`.trimEnd(),
};

/** The sentence a notification says, the same in the list and in the push ("5 people liked your video"). */
export function notificationTitle(n: Describable): string {
  return TITLES[n.kind](n, n.actor_name || 'Someone');
}

/** The second line: the video's title, the comment (replied, mentioned in or liked), the reason, a follower's @handle; empty when the title says it all. */
export function notificationBody(n: Describable): string {
  if (n.kind === 'follow') return n.actor_handle ? `@${n.actor_handle}` : '';
  return n.kind === 'prize' || n.kind === 'report_resolved' ? '' : (n.detail ?? '');
}

/** Where tapping it goes: the video's card in the feed, the follower's page, or the rewards page for a prize. */
export function notificationUrl(n: Describable): string {
  if (n.kind === 'follow') return n.actor_handle ? `/@${encodeURIComponent(n.actor_handle)}` : '/home';
  if (n.kind === 'report_resolved') return '/home';
  if (n.kind === 'prize' || !n.video_id) return '/rewards';
  return `/home#video-${encodeURIComponent(n.video_id)}`;
}
