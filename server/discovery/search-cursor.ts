import { badRequest } from '../http/errors';
import { isHashtag } from '#sync/protocol/hashtags';

// The cursors of GET /api/search (docs/decisions/0025-discovery.md, "Search"): base64url of a text
// that names its type, so that a cursor of another type, of another read or made up is 400
// invalid_cursor rather than a page that silently starts elsewhere.

/** People: the tier (0 the exact handle, 1 a handle prefix, 2 a name), then followers and handle within names. */
export type PeopleCursor = { tier: 0 | 1 | 2; followers: number; handle: string };
/** Videos: the tier (0 a word in the title, 1 elsewhere), then newest first. */
export type VideoCursor = { tier: 0 | 1; at: number; id: string };
/** Hashtags: the last tag shown, in tag order. */
export type HashtagSearchCursor = { tag: string };

// followers_count is an integer column: PostgreSQL types the parameter compared with it as one.
export const INT_MAX = 2_147_483_647;

const invalidCursor = () => badRequest('The cursor is not one this search returned.', 'invalid_cursor');

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decode(raw: string, shape: RegExp): RegExpExecArray {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) throw invalidCursor();
  const m = shape.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw invalidCursor();
  return m;
}

export const encodePeopleCursor = (c: PeopleCursor) => encode(`s1:p:${c.tier}:${c.followers}:${c.handle}`);
export const encodeVideoCursor = (c: VideoCursor) => encode(`s1:v:${c.tier}:${c.at}:${c.id}`);
export const encodeHashtagSearchCursor = (c: HashtagSearchCursor) => encode(`s1:h:${c.tag}`);

export function parsePeopleCursor(raw: string | undefined): PeopleCursor | null {
  if (raw === undefined) return null;
  const m = decode(raw, /^s1:p:([012]):(\d{1,10}):([a-z][a-z0-9_.]{2,29})$/);
  const followers = Number(m[2]);
  if (followers > INT_MAX) throw invalidCursor();
  return { tier: Number(m[1]) as PeopleCursor['tier'], followers, handle: m[3]! };
}

export function parseVideoCursor(raw: string | undefined): VideoCursor | null {
  if (raw === undefined) return null;
  const m = decode(raw, /^s1:v:([01]):(\d{1,16}):([A-Za-z0-9_-]{1,64})$/);
  return { tier: Number(m[1]) as VideoCursor['tier'], at: Number(m[2]), id: m[3]! };
}

export function parseHashtagSearchCursor(raw: string | undefined): HashtagSearchCursor | null {
  if (raw === undefined) return null;
  const tag = decode(raw, /^s1:h:(.+)$/u)[1]!;
  if (!isHashtag(tag)) throw invalidCursor();
  return { tag };
}
