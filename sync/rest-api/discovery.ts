import * as z from 'zod';
import { FeedItemSchema } from '#sync/protocol/messages';

// Discovery reads (docs/decisions/0025-discovery.md; server/discovery/): shared by the server
// (OpenAPI) and the client.

export const SEARCH_TYPES = ['people', 'videos', 'hashtags'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
/** What a search may be: 1 to 100 characters (anything else is 400 invalid_request). */
export const SEARCH_QUERY_MAX = 100;

/** GET /api/search?type=people: exact handle first, then handle prefix, then name matches. */
export const PersonResultSchema = z.object({
  id: z.string(),
  handle: z.string(),
  name: z.string(),
  followers_count: z.number(),
  viewer: z.object({ following: z.boolean() }),
});
export type PersonResult = z.infer<typeof PersonResultSchema>;

/** GET /api/search?type=hashtags: tags by prefix. */
export const HashtagResultSchema = z.object({ tag: z.string(), videos_count: z.number() });
export type HashtagResult = z.infer<typeof HashtagResultSchema>;

const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const PeopleResultsSchema = pageOf(PersonResultSchema);
export const VideoResultsSchema = pageOf(FeedItemSchema);
export const HashtagResultsSchema = pageOf(HashtagResultSchema);
/** One of the three, by the request's type. */
export const SearchResultsSchema = z.union([PeopleResultsSchema, VideoResultsSchema, HashtagResultsSchema]);

export const HASHTAG_SORTS = ['recent', 'top'] as const;
export type HashtagSort = (typeof HASHTAG_SORTS)[number];

/** GET /api/hashtags/{tag}?sort=recent|top&cursor=: the tag's ready videos in the feed item shape. */
export const HashtagPageSchema = z.object({
  tag: z.string(),
  videos_count: z.number(),
  items: z.array(FeedItemSchema),
  next_cursor: z.string().nullable(),
});
export type HashtagPage = z.infer<typeof HashtagPageSchema>;

/** A tag as the admin screen lists it (GET /api/admin/hashtags), and the answer of its hide and unhide. */
export const AdminHashtagSchema = z.object({ tag: z.string(), videos_count: z.number(), hidden: z.boolean() });
export type AdminHashtag = z.infer<typeof AdminHashtagSchema>;
export const AdminHashtagPageSchema = pageOf(AdminHashtagSchema);
export type AdminHashtagPage = z.infer<typeof AdminHashtagPageSchema>;
