/**
 * The feed's keyset cursor: base64url of "<created_ms>:<id>". The server makes it for next pages;
 * the client makes one from the oldest video it holds to fetch what lies below its window.
 */
export function encodeFeedCursor(createdMs: number, id: string): string {
  return btoa(`${createdMs}:${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeFeedCursor(cursor: string): { at: number; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const m = /^(\d{1,16}):([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!m?.[1] || !m[2]) return null;
  return { at: Number(m[1]), id: m[2] };
}
