export interface CommentView {
  id: string;
  user_name: string | null;
  /** Their page is /@user_handle; '' (or absent on a comment just written here) links nowhere. */
  user_handle?: string;
  content: string;
  created_at: number | string;
  pending?: boolean;
}
