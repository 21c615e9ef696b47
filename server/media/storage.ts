import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, normalize, sep } from 'node:path';

/**
 * Media files live under DATA_DIR/media/{userId}/{timestamp}-{safe name} (docs/uploads.md, "Storage layout"). Keys are
 * relative paths; this is the only place that turns one into a file path, and it refuses any key
 * that would escape the media folder.
 */
export function mediaPath(mediaDir: string, key: string): string {
  const full = normalize(join(mediaDir, key));
  if (!full.startsWith(normalize(mediaDir) + sep)) throw new Error(`media key escapes the media folder: ${key}`);
  return full;
}

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

/** Every stored poster file of one video (the current one and any it replaced). */
export async function posterKeysOf(mediaDir: string, userId: string, videoId: string): Promise<string[]> {
  const names = await readdir(mediaPath(mediaDir, userId)).catch(() => [] as string[]);
  return names.filter((n) => POSTER_NAME_RE.exec(n)?.[1] === videoId).map((n) => `${userId}/${n}`);
}

/**
 * Writes a file under its key unless it is already there (content-addressed keys: same key, same
 * bytes). Written to a hidden temp name, fsynced, then renamed, so a reader never sees half a file
 * and a row never points at bytes a crash could lose. Returns whether this call created it.
 */
export async function writeMediaFileOnce(mediaDir: string, key: string, bytes: Uint8Array): Promise<boolean> {
  const file = mediaPath(mediaDir, key);
  if (
    await stat(file).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return false;
  // A leading dot never matches the served key shape, so the temp file is never public.
  const tmp = join(dirname(file), `.tmp-${randomBytes(8).toString('hex')}-${basename(file)}`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
  return true;
}

/** Removes exactly these files (nothing else of the video); missing ones are fine. */
export async function deleteMediaKeys(mediaDir: string, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => rm(mediaPath(mediaDir, k), { force: true })));
}

/**
 * Removes a video's files; missing files are fine (a retry after a crash). A content-addressed
 * poster key also takes the video's earlier posters with it: they are kept while the video exists
 * (pages may still show them) and have no other owner.
 */
export async function deleteMediaFiles(mediaDir: string, keys: Array<string | null>): Promise<void> {
  const all = new Set<string>();
  for (const k of keys) {
    if (!k) continue;
    all.add(k);
    const [userId, name] = k.split('/');
    const videoId = name ? POSTER_NAME_RE.exec(name)?.[1] : undefined;
    if (userId && videoId) for (const p of await posterKeysOf(mediaDir, userId, videoId)) all.add(p);
  }
  await deleteMediaKeys(mediaDir, [...all]);
}
