import type { HashtagSort } from '#sync/rest-api/discovery';

/** GET /api/hashtags/{tag}?sort=: kept by the service worker for offline (client/sw/sw.ts), one copy per sort. */
export const hashtagPath = (tag: string, sort: HashtagSort): string => `/api/hashtags/${encodeURIComponent(tag)}?sort=${sort}`;
