import { badRequest } from '../http/errors';

/** An opaque keyset cursor over (created_at, id), newest first. */
export interface TimeCursor {
  createdAt: number;
  id: string;
}

export function encodeTimeCursor(c: TimeCursor): string {
  return Buffer.from(`${c.createdAt}:${c.id}`, 'utf8').toString('base64url');
}

export function decodeTimeCursor(raw: string | undefined): TimeCursor | null {
  if (raw === undefined || raw === '') return null;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const m = /^(\d{1,16}):([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!m?.[1] || !m[2]) throw badRequest('cursor: not a cursor this server gave out.', 'invalid_cursor');
  return { createdAt: Number(m[1]), id: m[2] };
}

export function decodeIdCursor(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('cursor: not a cursor this server gave out.', 'invalid_cursor');
  return Number(raw);
}

/** LIKE pattern matching `text` anywhere, with the LIKE wildcards in it taken literally (ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
