// Zod-free: the client replays queued mutations (and so reads these declarations) on its first screen.
import { blocks, follows, mutes, notifications, profiles } from './member-entities';
import { comment_likes, comments, likes, shares, videos, views } from './video-entities';

/*
 * Every synced entity, declared once (docs/sync.md, "Entities"): video-entities.ts (a video and what
 * members do with it) and member-entities.ts (a member's own rows). The row types are what mutations
 * read and write: the server's columns of the same names (db/tables/*.ts; server-tables.ts checks
 * that they match). Adding an entity: its declaration in one of those files and its line here, its
 * migration, and its mutations.
 */

export * from './member-entities';
export * from './video-entities';

/** The registry: `tx.<name>` in every mutation (mutation-tx.ts), each named as its table. */
export const entities = { videos, likes, comments, comment_likes, shares, views, profiles, notifications, follows, blocks, mutes } as const;
export type Entities = typeof entities;
export type EntityName = keyof Entities;
