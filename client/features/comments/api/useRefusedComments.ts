import { useEffect, useRef } from 'react';
import { onRejection } from '#client/sync/rejection-events';

/**
 * Calls `giveBack` with the text of a comment or reply on `videoId` the server refused for good
 * while the dialog is open (a reply to a comment deleted meanwhile: `parent_deleted`), so the
 * member has their words back; the sync bridge has already said why.
 */
export function useRefusedComments(videoId: string, giveBack: (content: string) => void): void {
  const latest = useRef(giveBack);
  useEffect(() => {
    latest.current = giveBack;
  });
  useEffect(
    () =>
      onRejection((r) => {
        if (r.name !== 'addComment') return;
        const args = r.args as { videoId?: unknown; content?: unknown };
        if (args.videoId === videoId && typeof args.content === 'string') latest.current(args.content);
      }),
    [videoId],
  );
}
