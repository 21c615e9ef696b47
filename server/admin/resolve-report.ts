import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockScoringExclusive, lockScoringShared } from '#db/locks';
import type { AnyMutation } from '#sync/mutations/catalogue';
import type { ReportTargetType } from '#sync/protocol/report-reasons';
import type { ReportAction, ResolveReportsAnswer, ResolveReportsBody } from '#sync/rest-api/moderation';
import type { AppDeps, AuthUser } from '../context';
import type { Changes } from '../changes/changes';
import { badRequest } from '../http/errors';
import { deleteMediaFiles } from '../media/storage';
import { deleteVideoInTx } from '../videos/delete-video';
import { closeOpenEntry, closeReports, type OpenEntry } from '../safety/resolve';
import { ownerOf } from '../safety/targets';
import { recordAudit } from './audit';
import { setUserActive } from './users';

type Trx = Transaction<Database>;

/** Runs a mutation as the admin in this transaction (server/sync/mutation-in-tx.ts, handed down by server/app.ts). */
export type RunMutation = (deps: Deps, trx: Trx, changes: Changes, user: AuthUser, mutation: AnyMutation) => Promise<void>;

type Deps = Pick<AppDeps, 'engine' | 'media'>;

export interface ResolveContext {
  deps: Deps;
  trx: Trx;
  changes: Changes;
  admin: AuthUser;
  runMutation: RunMutation;
}

/** `remove` deletes a video by the admin path (as DELETE /api/admin/videos/{id}) or a comment as deleteComment by an admin does. */
async function removeTarget(r: ResolveContext, entry: OpenEntry): Promise<void> {
  if (entry.targetType === 'video') {
    const gone = await deleteVideoInTx(r.trx, r.changes, entry.targetId);
    // Already deleted (by its owner, or an admin from the Videos tab): the reports still close as actioned.
    if (!gone) return;
    await recordAudit(r.trx, { actorId: r.admin.id, action: 'video.delete', target: entry.targetId, details: { owner_id: gone.ownerId } }, r.changes.now);
    r.changes.afterCommit(() => deleteMediaFiles(r.deps.media, gone.fileKeys));
    return;
  }
  // deleteComment audits an admin's deletion of another's comment itself (server/sync/mutations/effects.ts); a deleted one is a no-op.
  await r.runMutation(r.deps, r.trx, r.changes, r.admin, { name: 'deleteComment', args: { commentId: entry.targetId } } as AnyMutation);
}

/** `suspend` suspends the member behind the target as the Users tab does; returns who, when it changed anything. */
async function suspendOwner(r: ResolveContext, entry: OpenEntry): Promise<string | null> {
  const userId = ownerOf(entry.targetType, entry.snapshot);
  const result = await setUserActive(r.trx, r.changes, r.admin.id, userId, false);
  if (!result.changed) return null;
  await recordAudit(r.trx, { actorId: r.admin.id, action: 'user.suspend', target: userId, details: { email: result.email } }, r.changes.now);
  return userId;
}

const removable = (type: ReportTargetType) => type !== 'member';

/**
 * POST /api/admin/reports/resolve inside its transaction: the entry closes first (404 when nothing
 * is open), the action is carried out, every open report takes the outcome and each reporter is
 * told. Audited as `report.resolve` (plus the deletion or suspension's own entry). Returns the
 * answer and the member suspended, whose open event streams the caller ends after the commit.
 */
export async function resolveReports(r: ResolveContext, body: ResolveReportsBody): Promise<{ answer: ResolveReportsAnswer; suspended: string | null }> {
  const action: ReportAction = body.action;
  if (action === 'remove' && !removable(body.targetType)) throw badRequest('A member cannot be removed from here: suspend them instead.', 'invalid_action');
  // Points move (a removal) or eligibility changes (a suspension): the scoring lock comes first, as
  // in a push, so a report pushed at the same moment never holds it while waiting for the entry's row.
  if (action === 'remove') await lockScoringShared(r.trx);
  if (action === 'suspend') await lockScoringExclusive(r.trx);
  const entry = await closeOpenEntry(r.trx, { ...body, action }, r.changes.now);
  let suspended: string | null = null;
  if (action === 'remove') await removeTarget(r, entry);
  if (action === 'suspend') suspended = await suspendOwner(r, entry);
  const count = await closeReports(r.trx, r.changes, entry, action);
  await recordAudit(
    r.trx,
    {
      actorId: r.admin.id,
      action: 'report.resolve',
      target: entry.targetId,
      details: { target_type: entry.targetType, action, reports: count, ...(body.note ? { note: body.note } : {}) },
    },
    r.changes.now,
  );
  return { answer: { state: action === 'dismiss' ? 'dismissed' : 'actioned', reports_resolved: count }, suspended };
}
