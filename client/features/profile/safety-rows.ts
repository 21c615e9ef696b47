// The rows of "Blocked accounts" and "Muted accounts" on /profile, from the device's blocks and
// mutes stores. A synced row carries the other member's name and handle (server/sync/own-rows.ts);
// a row written on the device before the server answered has neither, and says only that it is a member.

/** A row as the list shows it. */
export interface SafetyListRow {
  userId: string;
  /** The member's name, or the neutral placeholder. */
  label: string;
  /** '@handle', or null when the row does not carry it. */
  handle: string | null;
  createdAt: number;
}

export const UNKNOWN_MEMBER = 'A Vidi member';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** `side` is 'blocked' or 'muted': the column prefix of the other member's id in the row. */
export function safetyListRow(row: Record<string, unknown>, side: 'blocked' | 'muted'): SafetyListRow {
  const handle = text(row.handle);
  const name = text(row.name);
  return {
    userId: String(row[`${side}_id`]),
    label: name ?? (handle ? `@${handle}` : UNKNOWN_MEMBER),
    handle: handle ? `@${handle}` : null,
    createdAt: typeof row.created_at === 'number' ? row.created_at : 0,
  };
}

/** Newest first. */
export function safetyList(rows: ReadonlyArray<Record<string, unknown>>, side: 'blocked' | 'muted'): SafetyListRow[] {
  return rows.map((r) => safetyListRow(r, side)).sort((a, b) => b.createdAt - a.createdAt || a.userId.localeCompare(b.userId));
}
