export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export interface Shareable {
  id: string;
  title: string;
  description: string | null;
}

/** The link to a video: the feed, scrolled to its card. */
export function videoLink(videoId: string): string {
  return `${location.origin}/home#video-${encodeURIComponent(videoId)}`;
}

/** As the product's copy describes it: the device share sheet when there is one, otherwise the link goes to the clipboard. */
export function shareOrCopy(video: Shareable): Promise<ShareOutcome> {
  return shareUrl(videoLink(video.id), video.title, video.description ?? video.title);
}

/** Any of the app's links (a video, a creator page) the same way: the share sheet, else the clipboard. */
export async function shareUrl(url: string, title: string, text: string): Promise<ShareOutcome> {
  const data: ShareData = { title, text, url };
  if (typeof navigator.share === 'function' && (!navigator.canShare || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return 'cancelled';
      // Share sheet unavailable (e.g. not allowed here): fall back to copying.
    }
  }
  return (await copyText(url)) ? 'copied' : 'failed';
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
