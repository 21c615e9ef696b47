import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AdminHashtag, AdminHashtagPage } from '#sync/rest-api/discovery';
import { isHashtag, normalizeHashtag } from '#sync/protocol/hashtags';
import { badRequest } from '../http/errors';

// The admin's hashtags (docs/moderation.md, "Hidden hashtags"): a list by prefix, or the most used
// when no prefix is typed, each an index range (the primary key; hashtags_videos_count, added by
// db/migrations/0020_hashtags_admin.ts), and hiding or showing a tag again.

/** Where a list page starts: by tag (a prefix search) or by count then tag (the most used). */
export type HashtagListCursor = { kind: 'prefix'; tag: string } | { kind: 'used'; count: number; tag: string };

// videos_count is an integer column: PostgreSQL types the parameter compared with it as one.
const INT_MAX = 2_147_483_647;
// Above every character a tag can hold, in UTF-8 byte order (SQLite's BINARY, PostgreSQL's "C"):
// tag >= p AND tag < p || LAST is exactly "starts with p", as one range of the primary key.
const LAST = '\u{10FFFF}';

const invalidCursor = () => badRequest('cursor: not a cursor this server gave out for this search.', 'invalid_cursor');

export function encodeListCursor(c: HashtagListCursor): string {
  return Buffer.from(c.kind === 'prefix' ? `a1:p:${c.tag}` : `a1:u:${c.count}:${c.tag}`, 'utf8').toString('base64url');
}

/** `cursor=` for a search of `prefix` ('' : the most used); 400 invalid_cursor for one of another kind. */
export function decodeListCursor(prefix: string, raw: string | undefined): HashtagListCursor | null {
  if (raw === undefined || raw === '') return null;
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) throw invalidCursor();
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const m = prefix ? /^a1:p:(.+)$/u.exec(text) : /^a1:u:(\d{1,10}):(.+)$/u.exec(text);
  const tag = m?.[prefix ? 1 : 2];
  if (!m || !tag || !isHashtag(tag)) throw invalidCursor();
  if (prefix) return { kind: 'prefix', tag };
  const count = Number(m[1]);
  if (count > INT_MAX) throw invalidCursor();
  return { kind: 'used', count, tag };
}

/** What the admin typed as the start of a tag: a leading # dropped, as tags are filed (NFKC, lower case). */
export const prefixOf = (q: string): string => normalizeHashtag(q.trim().replace(/^#/, ''));

type Row = { tag: string; videos_count: number; hidden: number };

/** One list page (and one more row). */
export function hashtagListQuery(prefix: string, cursor: HashtagListCursor | null, limit: number): RawBuilder<Row> {
  if (prefix) {
    const after = cursor?.kind === 'prefix' ? cursor.tag : '';
    return sql<Row>`SELECT tag, videos_count, hidden FROM hashtags
      WHERE tag >= ${prefix} AND tag < ${prefix + LAST} AND tag > ${after} ORDER BY tag LIMIT ${limit + 1}`;
  }
  const after = cursor?.kind === 'used' ? cursor : { count: INT_MAX, tag: '' };
  return sql<Row>`SELECT tag, videos_count, hidden FROM hashtags
    WHERE (videos_count, tag) < (${after.count}, ${after.tag}) ORDER BY videos_count DESC, tag DESC LIMIT ${limit + 1}`;
}

const toAdminHashtag = (r: Row): AdminHashtag => ({ tag: r.tag, videos_count: Number(r.videos_count), hidden: Number(r.hidden) === 1 });

export async function listHashtags(db: Kysely<Database>, q: string, raw: string | undefined, limit: number): Promise<AdminHashtagPage> {
  const prefix = prefixOf(q);
  const { rows } = await hashtagListQuery(prefix, decodeListCursor(prefix, raw), limit).execute(db);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next: HashtagListCursor | null =
    rows.length > limit && last ? (prefix ? { kind: 'prefix', tag: last.tag } : { kind: 'used', count: Number(last.videos_count), tag: last.tag }) : null;
  return { items: page.map(toAdminHashtag), next_cursor: next && encodeListCursor(next) };
}

/**
 * Hides or shows tag `tag` again; whether anything changed (a second hide changes nothing). Hiding a
 * tag nobody used yet writes its row, so that it is born hidden when a video first carries it
 * (fileVideo never overwrites an existing row's hidden).
 */
export async function setHashtagHidden(
  trx: Transaction<Database>,
  tag: string,
  hidden: boolean,
  now: number,
): Promise<{ changed: boolean; tag: AdminHashtag }> {
  let changed = false;
  if (hidden) {
    const made = await trx
      .insertInto('hashtags')
      .values({ tag, videos_count: 0, hidden: 1, created_at: now })
      .onConflict((oc) => oc.column('tag').doNothing())
      .executeTakeFirst();
    changed = Number(made.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  if (!changed) {
    const flipped = await trx
      .updateTable('hashtags')
      .set({ hidden: hidden ? 1 : 0 })
      .where('tag', '=', tag)
      .where('hidden', '=', hidden ? 0 : 1)
      .executeTakeFirst();
    changed = Number(flipped.numUpdatedRows) > 0;
  }
  const row = await trx.selectFrom('hashtags').select(['tag', 'videos_count', 'hidden']).where('tag', '=', tag).executeTakeFirst();
  return { changed, tag: row ? toAdminHashtag(row) : { tag, videos_count: 0, hidden: false } };
}
