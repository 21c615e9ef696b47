/** Media keys look like {userId}/{timestamp}-{safe name}: two safe segments, nothing else. */
export const MEDIA_KEY_RE = /^[A-Za-z0-9-]{1,64}\/[A-Za-z0-9_][A-Za-z0-9._-]{0,120}$/;

/** The public URL path of a media key (what video_url / poster_url carry). */
export function mediaUrl(key: string | null): string | null {
  return key ? `/media/${key}` : null;
}

const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** Stored names carry the extension of the detected content (never the uploader's), so this is exact. */
export function mediaContentType(key: string): string {
  const ext = /\.([a-z0-9]+)$/.exec(key.toLowerCase())?.[1] ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
