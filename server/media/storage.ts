import type { MediaStore } from '../storage/media-store';

/** Kept for the callers that still build disk paths themselves; the media store is the way in. */
export { mediaPath } from '../storage/disk-media-store';

/** A file name safe on every file system and in a URL: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(-80);
  return cleaned || 'video';
}

/**
 * Posters are content-addressed: {userId}/poster-{videoId}-{32 hex of the sha256}.{ext}. The same
 * bytes always get the same key, so a retried PUT changes nothing and a URL's bytes never change.
 */
const POSTER_NAME_RE = /^poster-([0-9a-f-]{36})-[0-9a-f]{32}\.[a-z]+$/;

/** Every stored poster of one video (the current one and any it replaced). */
export async function posterKeysOf(store: MediaStore, userId: string, videoId: string): Promise<string[]> {
  const keys = await store.listFiles(userId, `poster-${videoId}-`);
  return keys.filter((k) => POSTER_NAME_RE.exec(k.slice(userId.length + 1))?.[1] === videoId);
}

/**
 * Removes a video's objects; missing ones are fine (a retry after a crash). A content-addressed
 * poster key also takes the video's earlier posters with it: they are kept while the video exists
 * (pages may still show them) and have no other owner. The video's own folder (renditions,
 * captions) goes with the media runner's videoMediaDeleted.
 */
export async function deleteMediaFiles(store: MediaStore, keys: Array<string | null>): Promise<void> {
  const all = new Set<string>();
  for (const k of keys) {
    if (!k) continue;
    all.add(k);
    const [userId, name] = k.split('/');
    const videoId = name ? POSTER_NAME_RE.exec(name)?.[1] : undefined;
    if (userId && videoId) for (const p of await posterKeysOf(store, userId, videoId)) all.add(p);
  }
  await store.delete([...all]);
}
