import type { CommentView } from './components/types';

/** Adapter over the comments data hooks (client/features/comments/api). */
export function useCommentsData(_videoId: string | null): { comments: CommentView[]; loading: boolean } {
  return { comments: [], loading: false };
}

export function useSendComment(): (videoId: string, content: string) => Promise<void> {
  return async () => {};
}
