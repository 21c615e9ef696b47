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

/** The Content-Type of a media key (the store sets the same one on each object it writes). */
export { contentTypeOf as mediaContentType } from '../storage/content-type';
