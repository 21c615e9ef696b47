import type { AuthUser } from '#server/context';
import type { TusContext } from './context';

export const TUS_PATH = '/files';
/** Upload ids are ours (namingFunction): 32 hex digits, so nothing encoded, no `..`, no separators. */
export const UPLOAD_ID_RE = /^[0-9a-f]{32}$/;

export interface OwnUpload {
  id: string;
  row: { user_id: string; video_id: string; status: string; reason: string | null; size_bytes: number | null; poster_key: string | null };
}

/** The caller's upload named by the path, or the 404 every other case gets. */
export async function ownUpload(ctx: TusContext, request: Request, user: AuthUser): Promise<OwnUpload | Response> {
  const path = new URL(request.url).pathname;
  // Checked on the raw path, before any decoding: %2F, %00 and `..` never reach the file store.
  const id = path.startsWith(`${TUS_PATH}/`) ? path.slice(TUS_PATH.length + 1) : '';
  if (!UPLOAD_ID_RE.test(id)) return ctx.json(404, 'upload_not_found', 'No such upload.');
  const row = await ctx.deps.db
    .selectFrom('uploads')
    .select(['user_id', 'video_id', 'status', 'reason', 'size_bytes', 'poster_key'])
    .where('id', '=', id)
    .executeTakeFirst();
  // Someone else's upload looks exactly like a missing one.
  if (!row || row.user_id !== user.id) return ctx.json(404, 'upload_not_found', 'No such upload.');
  return { id, row };
}

/**
 * The answer for an upload that takes no more requests, or null while it is open. After a DELETE,
 * "the Server SHOULD respond with the 404 Not Found or 410 Gone status", and a removed upload gets
 * the same (https://tus.io/protocols/resumable-upload#termination).
 */
export function closedUpload(ctx: TusContext, row: OwnUpload['row']): Response | null {
  if (row.status === 'completed') return ctx.json(409, 'upload_finished', 'This upload has already finished.');
  if (row.status === 'rejected') return ctx.json(410, 'upload_rejected', row.reason ?? 'This upload was refused.');
  if (row.status === 'expired' || row.status === 'cancelled')
    return ctx.json(410, 'upload_expired', 'This upload no longer exists. Please upload the video again.');
  return null;
}
