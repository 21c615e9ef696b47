import * as Dialog from '@radix-ui/react-dialog';
import { useMemo } from 'react';
import type { FeedItem } from '#sync/protocol/messages';
import { useSession } from '#client/lib/session';
import { CloseIcon } from '#client/ui/icons';
import { useFeedActions } from '../api/useFeedActions';
import { useLocalOverlay } from '../api/useLocalOverlay';
import { useReportDialog } from '#client/ui/safety/useReportDialog';
import { useCommentsDialog } from './useCommentsDialog';
import { VideoCard } from './VideoCard';

interface Props {
  video: FeedItem | null;
  onClose(): void;
}

/**
 * One video as the feed shows it (player, like, comments, share), in a dialog: what a creator's
 * grid opens (client/app/routes/CreatorRoute.tsx hands it to the people feature).
 */
export function VideoDialog({ video, onClose }: Props) {
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : '';
  const comments = useCommentsDialog();
  const report = useReportDialog();
  const actions = useFeedActions(comments.open, report.open);
  const items = useMemo(() => (video ? [video] : []), [video]);
  const [card] = useLocalOverlay(items);
  return (
    <>
      <Dialog.Root open={!!video} onOpenChange={(o) => (o ? undefined : onClose())}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog-content video-dialog" aria-describedby={undefined}>
            <div className="dialog-head">
              <Dialog.Title className="sr-only">{video?.title ?? 'Video'}</Dialog.Title>
              <Dialog.Close className="icon-button" aria-label="Close">
                <CloseIcon />
              </Dialog.Close>
            </div>
            {card ? <VideoCard video={card} index={0} mode="preload" own={card.user_id === userId} actions={actions} /> : null}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {comments.dialog}
      {report.dialog}
    </>
  );
}
