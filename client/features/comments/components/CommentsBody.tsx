import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { toast } from '#client/ui/toast';
import { Spinner } from '#client/ui/Spinner';
import { useSession } from '#client/lib/session';
import { getClientDb } from '#client/sync/active-engine';
import { useSafetyActions } from '#client/ui/safety/useSafety';
import { useReportDialog } from '#client/ui/safety/useReportDialog';
import { useCommentActions } from '../api';
import { useRefusedComments } from '../api/useRefusedComments';
import { useCommentsData, useSendComment } from '../useCommentsData';
import { CommentComposer } from './CommentComposer';
import { DELETE_COMMENT_CONFIRM, type CommentHandlers } from './CommentItem';
import { CommentThread } from './CommentThread';
import type { CommentView, CommentViewer } from './types';

const failed = (title: string) => (err: unknown) => toast.error(title, { description: err instanceof Error ? err.message : 'Something went wrong' });

/** Who is looking: the signed-in member, whether an admin, and the video's owner (from the card, else the device's copy). */
function useViewer(videoId: string, ownerId: string | null): CommentViewer {
  const session = useSession();
  const stored = useLiveQuery(async () => (ownerId ? null : ((await getClientDb().videos.get(videoId))?.user_id ?? null)), [videoId, ownerId]);
  const user = session.status === 'signedIn' ? session.user : null;
  return useMemo(() => ({ userId: user?.id ?? null, isAdmin: user?.is_admin === true, videoOwnerId: ownerId ?? stored ?? null }), [user, ownerId, stored]);
}

export function CommentsBody({ videoId, ownerId }: { videoId: string; ownerId: string | null }) {
  const { comments, replies, loadedAt, loading } = useCommentsData(videoId);
  const send = useSendComment();
  const actions = useCommentActions();
  const viewer = useViewer(videoId, ownerId);
  const { open: openReport, dialog: reportDialog } = useReportDialog();
  const safety = useSafetyActions();
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<CommentView | null>(null);
  const input = useRef<HTMLInputElement | null>(null);
  // A refused comment or reply (its parent deleted meanwhile): its words come back, if the box is empty.
  useRefusedComments(
    videoId,
    useCallback((content: string) => setText((t) => (t.trim() ? t : content)), []),
  );

  const on = useMemo<CommentHandlers>(
    () => ({
      setLike: (c, liked) => void actions.setLike(c.id, liked).catch((e: unknown) => console.warn('comment like failed', e)),
      reply: (c) => {
        setReplyTo(c);
        input.current?.focus();
      },
      remove: (c) => {
        if (!window.confirm(DELETE_COMMENT_CONFIRM)) return;
        setReplyTo((r) => (r?.id === c.id ? null : r));
        // The comment's buttons go with it: focus stays in the dialog, on the box.
        input.current?.focus();
        actions.remove(c.id).catch(failed('Delete Failed'));
      },
      setPinned: (c, pinned) => void actions.setPinned(c.id, pinned).catch(failed('Pin not saved')),
      report: (c) => openReport({ type: 'comment', id: c.id, userId: c.user_id, handle: c.handle }),
      block: (c) => {
        // Their comments leave the list with the block: focus stays in the dialog, on the box.
        if (safety.block(c.user_id, c.handle)) input.current?.focus();
      },
      setMuted: (c, muted) => (muted ? safety.mute(c.user_id) : safety.unmute(c.user_id)),
    }),
    [actions, openReport, safety],
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    const target = replyTo;
    setText('');
    setReplyTo(null);
    send(videoId, content, target?.id).catch((err: unknown) => {
      failed('Comment Failed')(err);
      setText(content);
      setReplyTo(target);
    });
  };

  return (
    <>
      <div className="comments-list" aria-live="polite" aria-busy={loading}>
        {loading && comments.length === 0 ? (
          <Spinner label="Loading comments" />
        ) : comments.length === 0 ? (
          <p className="empty-text">No comments yet. Be the first to comment!</p>
        ) : (
          <ul aria-label="Comments">
            {comments.map((c) => (
              <CommentThread key={c.id} videoId={videoId} top={c} replies={replies[c.id] ?? []} loadedAt={loadedAt} viewer={viewer} on={on} />
            ))}
          </ul>
        )}
      </div>
      <CommentComposer text={text} setText={setText} replyTo={replyTo} cancelReply={() => setReplyTo(null)} onSubmit={onSubmit} input={input} />
      {reportDialog}
    </>
  );
}
