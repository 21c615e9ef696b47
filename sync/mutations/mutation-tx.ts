// Zod-free: the client replays queued mutations on its first screen, before zod is loaded.
import type { CounterOf, Table } from '../entities/define-entity';
import type { Entities } from '../entities/registry';

export type { VideoRef } from '../entities/registry';
export type VideoCounter = CounterOf<Entities['videos']>;

/**
 * The tables a mutation reads and writes: one `tx.<table>` per entity of the registry
 * (sync/entities/registry.ts), each with the same generic operations (zbugs' `tx.mutate.<table>`).
 * The client implements it over its Dexie tables (optimistic: the rows this device holds), the
 * server over the database (authoritative: it stamps the time, writes the change log and keeps
 * counters exact). A mutation's logic is written once against it.
 */
export type MutationTx = {
  readonly location: 'client' | 'server';
  /** The acting member; on the server it comes from the access token, never from the args. */
  readonly userId: string;
  /** The action's time: the server's clock there, the time the member acted on the device. */
  readonly now: number;
  isAdmin(): Promise<boolean>;
} & { readonly [N in keyof Entities]: Table<Entities[N]> };
