import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AuthUser } from '#server/context';
import type { MediaStore } from '#server/storage/media-store';
import type { Changes } from '#server/changes/changes';
import type { ScoreMemo } from '#server/rewards/score-events';
import type { MutationResult } from '#sync/protocol/messages';
import type { LikeNoteBuffer } from '#server/notifications/create';
import type { PushStatements } from '../push-statements';
import type { SafetyMemo } from './safety-rules';

/**
 * PostgreSQL runs a push's mutations without a savepoint each (a savepoint and its release are two
 * round trips per mutation, and every savepoint is a subtransaction). A refused mutation may have
 * written before it threw, so the whole transaction is rolled back and run again with that mutation
 * answered as refused from the start (RerunPush in push.ts); a fault that is not the caller's reruns
 * it up to the mutation before the fault. Refusals are rare: the common push pays nothing for them.
 */
export interface RerunPlan {
  /** Mutations refused in an earlier run of this transaction: answered so again without running them. */
  refused: Map<number, MutationResult>;
  /** Stop before this mutation id (a fault at it in an earlier run). */
  stopAt?: number;
}

/** What the mutations of one push transaction share: its hot statements and its score facts. */
export interface PushBatch {
  statements: PushStatements;
  scores: ScoreMemo;
  /** Set on PostgreSQL: no savepoint per mutation, a refusal reruns the transaction (RerunPlan). */
  rerun?: RerunPlan;
  /** Like notifications written at the push's end, in id order (server/notifications/create.ts); unset, each is written as it comes. */
  likeNotes?: LikeNoteBuffer;
  /** The pusher's blocks and mutes, read once (safety-rules.ts). */
  safety?: SafetyMemo | undefined;
}

/** One mutation's server context: its transaction, its caller, its time and the changes it declares. */
export interface ServerMutationContext {
  trx: Transaction<Database>;
  user: AuthUser;
  now: number;
  /** The mutation's client_time: only the view rule uses it (views are queued offline). */
  clientTime: number | undefined;
  batch: PushBatch;
  changes: Changes;
  /** Where the deleted video's objects go from, once the push committed. */
  media: MediaStore;
}
