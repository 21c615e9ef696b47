import type { FeedItem } from '#sync/protocol/messages';

// MEDIA_PUBLIC_BASE_URL (docs/decisions/0026-media-from-a-public-base.md). The feed items are built
// by reads all over the server (feeds, search, tags, creator pages, the pull), some of them as JSON
// text in SQL, and none of them is handed the configuration: the base is one value per process, set
// at start-up, which they read here.
let publicBase: string | null = null;

/** Called by createDeps with config.media.publicBaseUrl (undefined: every URL stays /media). */
export function setMediaPublicBase(base: string | undefined): void {
  publicBase = base ?? null;
}

/** The base without its trailing slash, or null when unset: the SQL reads pass it as a parameter. */
export function mediaPublicBase(): string | null {
  return publicBase;
}

/**
 * A feed item's poster_url: at the public base once the video is ready (what other members see);
 * the poster of a video still processing or failed stays behind the app's /media.
 */
export function posterUrl(key: string | null, status: FeedItem['media_status']): string | null {
  if (!key) return null;
  return status === 'ready' && publicBase ? `${publicBase}/${key}` : `/media/${key}`;
}
