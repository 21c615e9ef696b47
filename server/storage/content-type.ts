const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
  vtt: 'text/vtt; charset=utf-8',
};

/**
 * The Content-Type of a media key from its extension. Stored names carry the extension of the
 * detected content (never the uploader's), so this is exact. Kept here rather than in server/media,
 * which depends on this folder (the folder graph has no cycles: tests/architecture/folder-cycles.test.ts).
 */
export function contentTypeOf(key: string): string {
  const ext = /\.([a-z0-9]+)$/.exec(key.toLowerCase())?.[1] ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
