import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';

/**
 * Of the members `candidates` an actor's words or deed would tell, those not to tell
 * (docs/decisions/0024-safety.md): who muted or blocked the actor, and whom the actor blocked. One
 * statement of primary-key probes; a push's likes and follows use its memo instead
 * (server/sync/mutations/safety-rules.ts).
 */
export async function quietMembers(trx: Transaction<Database>, actorId: string, candidates: readonly string[]): Promise<Set<string>> {
  if (!candidates.length) return new Set();
  const rows = await trx
    .selectFrom('mutes')
    .select('muter_id as id')
    .where('muter_id', 'in', candidates)
    .where('muted_id', '=', actorId)
    .unionAll(trx.selectFrom('blocks').select('blocker_id as id').where('blocker_id', 'in', candidates).where('blocked_id', '=', actorId))
    .unionAll(trx.selectFrom('blocks').select('blocked_id as id').where('blocker_id', '=', actorId).where('blocked_id', 'in', candidates))
    .execute();
  return new Set(rows.map((r) => r.id));
}
