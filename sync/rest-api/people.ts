import * as z from 'zod';

// The people reads (docs/data-model.md, "People"; server/people/routes.ts): shared by the server
// (OpenAPI) and the client. Writes (follow, unfollow, setHandle) are sync mutations, not calls.

/** GET /api/people/{handle}: a creator page's member. */
export const CreatorProfileSchema = z.object({
  id: z.string(),
  handle: z.string(),
  name: z.string(),
  created_at: z.string(),
  followers_count: z.number(),
  following_count: z.number(),
  /** Their ready videos. */
  videos_count: z.number(),
  /** blocked: the caller blocked them; muted: the caller muted them (docs/data-model.md, "Safety"). */
  viewer: z.object({ following: z.boolean(), followed_by: z.boolean(), blocked: z.boolean(), muted: z.boolean() }),
});
export type CreatorProfile = z.infer<typeof CreatorProfileSchema>;

/** One row of /followers, /following and /api/people/suggested. */
export const PersonItemSchema = z.object({ id: z.string(), handle: z.string(), name: z.string(), viewer: z.object({ following: z.boolean() }) });
export type PersonItem = z.infer<typeof PersonItemSchema>;

/** A keyset page of people (suggested is one page: next_cursor null). */
export const PeoplePageSchema = z.object({ items: z.array(PersonItemSchema), next_cursor: z.string().nullable() });
