/**
 * The first card's poster is the first screen's largest picture. Its address is known as soon as
 * a snapshot's body arrives, before the body is validated and written (apply-pull.ts, in the pull worker) and the feed
 * draws: the browser is told to fetch it then, at high priority (docs/decisions/0028-the-window-in-pages.md).
 * The feed's own preload of the same address (FeedPage.tsx) finds this one and adds none.
 */
export function hintFirstPoster(text: string): void {
  if (typeof document === 'undefined') return;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return;
  }
  const body = raw as { reset?: unknown; videos?: Array<{ poster_url?: unknown }> } | null;
  if (body?.reset !== true || !Array.isArray(body.videos)) return;
  const url = body.videos[0]?.poster_url;
  // The body is not validated yet: only an http(s) address is hinted (the page's CSP still applies).
  if (typeof url !== 'string' || !isWebAddress(url)) return;
  if (document.head.querySelector(`link[rel="preload"][href="${CSS.escape(url)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = url;
  link.fetchPriority = 'high';
  document.head.appendChild(link);
}

function isWebAddress(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url, location.href).protocol);
  } catch {
    return false;
  }
}
