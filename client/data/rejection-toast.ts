import type { Rejection } from './outbox';

/**
 * The toast for a queued change the server refused, from the spec's error catalogue, or null when
 * the spec says to stay quiet (likes are only logged; shares and views are invisible).
 */
export function rejectionToast(r: Rejection): { title: string; description: string } | null {
  switch (r.name) {
    case 'addComment':
      return { title: 'Comment Failed', description: r.error.message };
    case 'deleteVideo':
      return { title: 'Delete Failed', description: r.error.message };
    case 'updateProfileName':
      return { title: 'Update Failed', description: r.error.message };
    default:
      return null;
  }
}
