import { badRequest } from '../http/errors';
import { isHashtag, normalizeHashtag } from '#sync/protocol/hashtags';

/** A {tag} path parameter (already URL-decoded) as it is filed; 400 invalid_request for what no video could carry. */
export function hashtagOf(param: string): string {
  const tag = normalizeHashtag(param);
  if (!isHashtag(tag)) throw badRequest('That is not a hashtag: up to 50 letters, digits or _, not only digits, without the #.');
  return tag;
}
