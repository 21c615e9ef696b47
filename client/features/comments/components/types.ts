export interface CommentView {
  id: string;
  user_name: string | null;
  content: string;
  created_at: number | string;
  pending?: boolean;
}
