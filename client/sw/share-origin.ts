/** What the worker knows of where a share target POST came from. */
export interface ShareSource {
  /** The Sec-Fetch-Site header, or null: Chromium adds it after the worker, which never sees it. */
  secFetchSite: string | null;
  /** The Origin header ('null' from an opaque or no-referrer initiator), or null when absent. */
  origin: string | null;
  /** FetchEvent.clientId: the document that started the navigation; '' when the browser itself did (the OS share sheet). */
  clientId: string;
}

/**
 * Only the operating system's share sheet (Sec-Fetch-Site: none) and Vidi's own pages
 * (same-origin) may hand the app a file to upload; a cross-site form must not plant one
 * (docs/pwa.md, "Share into Vidi"). Where the worker cannot see Sec-Fetch-Site, the same is read
 * from the initiator: none at all, or a window of this origin (`clients.get` finds no other).
 */
export async function isOwnOrSystemShare(src: ShareSource, ownOrigin: string, findOwnClient: (id: string) => Promise<unknown>): Promise<boolean> {
  if (src.secFetchSite !== null) return src.secFetchSite === 'none' || src.secFetchSite === 'same-origin';
  if (src.origin !== null && src.origin !== 'null' && src.origin !== ownOrigin) return false;
  if (src.clientId === '') return true;
  return (await findOwnClient(src.clientId).catch(() => undefined)) != null;
}
