import { rm } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';

/**
 * Media files live under DATA_DIR/media/{userId}/{timestamp}-{safe name} (spec section 7). Keys are
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
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(-80);
  return cleaned || 'video';
}

/** Removes a video's files; missing files are fine (a retry after a crash). */
export async function deleteMediaFiles(mediaDir: string, keys: Array<string | null>): Promise<void> {
  await Promise.all(keys.filter((k): k is string => !!k).map((k) => rm(mediaPath(mediaDir, k), { force: true })));
}
