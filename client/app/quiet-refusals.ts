import { mutationDef } from '#sync/mutations/catalogue';
import type { Rejection } from '../sync/outbox';

/**
 * Whether a refusal is dropped without a toast: `blocked` always (an action toward a member who
 * blocked you, or whom you blocked, says nothing: docs/decisions/0024-safety.md), and the codes
 * the mutation lists as `quietRefusals` (a report of something already gone).
 */
export function isQuietRefusal(r: Pick<Rejection, 'name' | 'error'>): boolean {
  if (r.error.code === 'blocked') return true;
  const quiet: readonly string[] = mutationDef(r.name)?.quietRefusals ?? [];
  return quiet.includes(r.error.code);
}
