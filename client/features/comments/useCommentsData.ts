import { useAddComment, useVideoComments } from './api';
import type { CommentView } from './components/types';

/** The comments hooks (client/features/comments/api) in the shape the dialog uses. */
export function useCommentsData(videoId: string | null): { comments: CommentView[]; loading: boolean } {
  const { comments, status } = useVideoComments(videoId);
  return { comments, loading: status === 'loading' };
}

export function useSendComment(): (videoId: string, content: string) => Promise<void> {
  return useAddComment();
}
