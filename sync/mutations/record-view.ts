import { defineMutation } from './define-mutation';
import { requireShownVideo } from './require-video';

/** Whether a view counts is the server's call (docs/decisions/0008-the-view-rule.md): the shared part only checks the video. */
export const recordView = defineMutation({
  name: 'recordView',
  args: (k) => k.z.strictObject({ videoId: k.id, watchedMs: k.watchedMs }),
  // A view that does not count is not the member's concern.
  refusedTitle: null,
  pendingOnCard: false,
  sample: ({ videoId }) => ({ videoId, watchedMs: 5000 }),
  run: async (tx, { videoId }) => ({ video: await requireShownVideo(tx, videoId) }),
});
