import { useAddComment, useVideoComments } from './api';
import type { CommentView } from './components/types';

export interface CommentsData {
  /** Top-level comments, the pinned one first, then newest first. */
  comments: CommentView[];
  /** Each top-level comment's replies the device holds, oldest first. */
  replies: Record<string, CommentView[]>;
  /** When the list was last loaded whole (the threads load again then), or null. */
  loadedAt: number | null;
  loading: boolean;
}

/** The comments hooks (client/features/comments/api) in the shape the dialog uses. */
export function useCommentsData(videoId: string | null): CommentsData {
  const { comments, replies, loadedAt, status } = useVideoComments(videoId);
  return { comments, replies, loadedAt, loading: status === 'loading' };
}

export function useSendComment(): (videoId: string, content: string, parentId?: string) => Promise<void> {
  return useAddComment();
}
