/**
 * Media keys are {userId}/{timestamp}-{safe name} (originals, posters) or deeper under
 * {userId}/{videoId}/ (processed outputs: {jobId}/master.m3u8, {jobId}/v360/seg_00001.m4s, captions).
 * Every segment is safe and none starts with a dot, so a job's hidden temp folder is never served.
 */
export const MEDIA_KEY_RE = /^[A-Za-z0-9-]{1,64}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,120}){1,4}$/;

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
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
  vtt: 'text/vtt; charset=utf-8',
};

/** Stored names carry the extension of the detected content (never the uploader's), so this is exact. */
export function mediaContentType(key: string): string {
  const ext = /\.([a-z0-9]+)$/.exec(key.toLowerCase())?.[1] ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
