/**
 * The service worker's cache of people pages, their lists, the Following feed and hashtag pages (client/sw/sw.ts,
 * NetworkFirst): what a member saw there, their own view of it, so it is emptied at sign-out.
 */
export const PEOPLE_CACHE = 'vidi-people';

/** Drops the kept people pages: the next member on this device must not read this one's. */
export async function forgetPeoplePages(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(PEOPLE_CACHE);
}
