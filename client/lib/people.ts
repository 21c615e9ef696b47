import { ApiError } from './http/api-error';
import { memberHttp } from './session';

// The people reads (docs/pwa.md, "People"); their shapes are the server's (sync/rest-api/people.ts). The service worker
// keeps the visited ones for offline (client/lib/people-cache.ts).

export type { CreatorProfile, PersonItem } from '#sync/rest-api/people';

/** A keyset page of any of the lists. */
export interface ReadPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** The creator page's address: /@handle. */
export const creatorPath = (handle: string): string => `/@${handle}`;

/** The API path of a creator's read; `list` is one of their lists. */
export function peoplePath(handle: string, list?: 'videos' | 'followers' | 'following'): string {
  const base = `/api/people/${encodeURIComponent(handle)}`;
  return list ? `${base}/${list}` : base;
}

/** A people read; throws the ApiError of a refusal or of no answer (status 0). */
export function getPeopleRead<T>(path: string): Promise<T> {
  return memberHttp.json<T>('GET', path);
}

/** What a failed read threw, as an ApiError (status 0 when no answer came). */
export function readError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(0, 'network', e instanceof Error ? e.message : 'Something went wrong.');
}
