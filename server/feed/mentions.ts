import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { CommentItem } from '#sync/protocol/messages';
import { mentionedHandles } from '#sync/protocol/mentions';
import type { ReadVia } from './items';

// Mentions are read, not stored (docs/decisions/0023-conversations.md): each read of comments asks
// which of its texts' @handles are members' handles now, in one lookup of profiles_handle per page.

/** The members' handles among a JSON array, through profiles_handle (compiled once per connection). */
export const mentionStatements = perConnection((sqlite: SQLite.Database) => ({
  members: sqlite.prepare<{ handles: string }, { handle: string }>(`SELECT handle FROM profiles WHERE handle IN (SELECT value FROM json_each(@handles))`),
}));

/** The members' handles among `handles` (one statement text for any number of them). */
export async function memberHandles(via: ReadVia, handles: string[]): Promise<Set<string>> {
  if (!handles.length) return new Set();
  const rows =
    via.dialect === 'sqlite'
      ? mentionStatements(via.sqlite).members.all({ handles: JSON.stringify(handles) })
      : (await sql<{ handle: string }>`SELECT handle FROM profiles WHERE handle = ANY(${handles}::text[])`.execute(via.db)).rows;
  return new Set(rows.map((r) => r.handle));
}

/** The items with `mentions` filled: the handles of each text that name a member, in the text's order. */
export async function withMentions(via: ReadVia, items: CommentItem[]): Promise<CommentItem[]> {
  const named = items.map((c) => mentionedHandles(c.content));
  const members = await memberHandles(via, [...new Set(named.flat())]);
  return items.map((c, i) => ({ ...c, mentions: (named[i] ?? []).filter((h) => members.has(h)) }));
}
