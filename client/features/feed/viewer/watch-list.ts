import type { HashtagSort } from '#sync/rest-api/discovery';

// Not HASHTAG_SORTS: its module brings zod along.
const SORTS: readonly string[] = ['recent', 'top'] satisfies HashtagSort[];

/**
 * The list a viewer at /watch/{id}?list=… walks through (docs/pwa.md, "Viewer"): the member's feed
 * from the device (the default), or one the server pages (`path`, read with next_cursor).
 */
export type WatchList = { kind: 'feed' } | { kind: 'server'; key: string; path: string };

const FEED: WatchList = { kind: 'feed' };

/** The list named by `?list=`: feed, following, creator:{handle}, tag:{tag}:{recent|top} or search:{q}; anything else is the feed. */
export function parseWatchList(raw: string | undefined): WatchList {
  if (!raw || raw === 'feed') return FEED;
  if (raw === 'following') return { kind: 'server', key: raw, path: '/api/feed/following' };
  const colon = raw.indexOf(':');
  if (colon < 0) return FEED;
  const kind = raw.slice(0, colon);
  const rest = raw.slice(colon + 1);
  if (kind === 'creator' && rest) return { kind: 'server', key: raw, path: `/api/people/${encodeURIComponent(rest)}/videos` };
  if (kind === 'search' && rest.trim()) return { kind: 'server', key: raw, path: `/api/search?type=videos&q=${encodeURIComponent(rest)}` };
  if (kind === 'tag') {
    // The tag cannot hold a colon (sync/protocol/hashtags.ts), so the last one parts it from the order.
    const at = rest.lastIndexOf(':');
    const tag = at < 0 ? rest : rest.slice(0, at);
    const sort = at < 0 ? 'recent' : rest.slice(at + 1);
    if (tag && SORTS.includes(sort)) {
      return { kind: 'server', key: `tag:${tag}:${sort}`, path: `/api/hashtags/${encodeURIComponent(tag)}?sort=${sort as HashtagSort}` };
    }
  }
  return FEED;
}
