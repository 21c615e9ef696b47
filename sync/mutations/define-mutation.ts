import type * as z from 'zod';
import type { MutationErrorCode } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import type { MutationTx } from './mutation-tx';

/**
 * One mutation, defined once (zbugs' defineMutator): its arguments, what the client shows while it
 * is queued, the toast when the server refuses it for good, and its logic against the generic
 * tables. The client runs `run` optimistically over Dexie, the server authoritatively over the
 * database; server-only effects (points, audit, files) sit in server/sync/mutations/effects.ts and
 * get `run`'s outcome.
 *
 * `args` is a function of the schema kit so this module needs no zod at run time: the client
 * replays queued mutations on its first screen, and loads zod only to queue a new one.
 */
export interface MutationDef<N extends string, S extends z.ZodType, O> {
  readonly name: N;
  readonly args: (kit: ArgKit) => S;
  /** The title of the toast when the server refuses it for good (the product's copy); null: not shown. */
  readonly refusedTitle: string | null;
  /**
   * Refusal codes dropped without a toast (a report of something already gone). `blocked` is always
   * quiet, for every mutation: an action toward a member who blocked you is dropped without a word.
   */
  readonly quietRefusals?: readonly MutationErrorCode[];
  /** Whether a queued copy marks its video's card as pending. */
  readonly pendingOnCard: boolean;
  /** The comment a queued copy shows as pending, if it adds one. */
  readonly pendingComment?: (args: z.output<S>) => string;
  /** Rebasing it also resets its video's comment list. */
  readonly rewritesComments?: boolean;
  /** It changes the member's own profile (rebase resets the profile; the profile shows pending). */
  readonly changesProfile?: boolean;
  /**
   * Other client stores whose shown rows it changes (their entities reset by key from a `server_`
   * copy, sync/entities/registry.ts): rebase resets them whole while it is queued or just settled.
   */
  readonly resetsStores?: readonly string[];
  /**
   * Arguments it takes on a fixture's video (ids made fresh by `fx.id`): the both-sides test runs
   * every catalogued mutation with them on the device and on the server
   * (tests/integration/mutations-both-sides.test.ts), so a mutation without them does not compile.
   */
  readonly sample: (fx: SampleFixture) => z.input<S>;
  /** Replays are harmless: `run` on an already-applied mutation changes nothing. */
  readonly run: (tx: MutationTx, args: z.output<S>) => Promise<O>;
}

/** What a mutation's sample arguments may name: a video of another member, a comment on it, fresh ids, the actor's unread notifications. */
export interface SampleFixture {
  videoId: string;
  /** A top-level comment of the video's owner on the video, held by the device too. */
  commentId: string;
  /** The video's owner: another member, or the actor when the owner runs the sample. */
  ownerId: string;
  /** A member who is neither the actor nor the video's owner (a block of them leaves the video alone). */
  strangerId: string;
  id: (label: string) => string;
  notificationIds: string[];
}

export function defineMutation<const N extends string, S extends z.ZodType, O>(def: MutationDef<N, S, O>): MutationDef<N, S, O> {
  return def;
}
