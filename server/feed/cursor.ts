import { ApiError } from '../http/errors';
import { decodeFeedCursor } from '#sync/protocol/feed-cursor';

/** A page's `cursor=` as the keyset reads take it (null: the first page); 400 invalid_cursor for one this API never made. */
export function parseCursor(cursor: string | undefined) {
  if (cursor === undefined) return null;
  const c = decodeFeedCursor(cursor);
  if (!c) throw new ApiError(400, 'invalid_cursor', 'The cursor is not one this API returned.');
  return c;
}
