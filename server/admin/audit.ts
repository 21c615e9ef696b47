import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AuditPage } from '#sync/rest-api/admin';

export type AuditAction =
  | 'user.suspend'
  | 'user.reactivate'
  | 'user.delete'
  | 'video.delete'
  | 'comment.delete'
  | 'rewards.update'
  | 'rewards.void'
  | 'settings.update'
  | 'report.resolve'
  | 'hashtag.hide'
  | 'hashtag.unhide';

/** Written in the same transaction as the action, so the log never claims something that rolled back. */
export async function recordAudit(
  trx: Transaction<Database>,
  entry: { actorId: string; action: AuditAction; target: string | null; details?: Record<string, unknown> },
  now: number,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target: entry.target,
      details: entry.details ? JSON.stringify(entry.details) : null,
      created_at: now,
    })
    .execute();
}

/** Newest first, keyset-paged by id (the autoincrement key is also the order of writing). */
export async function listAudit(db: Kysely<Database>, limit: number, beforeId: number | null): Promise<AuditPage> {
  let q = db
    .selectFrom('audit_log')
    .leftJoin('profiles', 'profiles.id', 'audit_log.actor_id')
    .select([
      'audit_log.id',
      'audit_log.actor_id',
      'profiles.name as actor_name',
      'audit_log.action',
      'audit_log.target',
      'audit_log.details',
      'audit_log.created_at',
    ])
    .orderBy('audit_log.id', 'desc')
    .limit(limit + 1);
  if (beforeId !== null) q = q.where('audit_log.id', '<', beforeId);
  const rows = await q.execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: Number(r.id),
      actor_id: r.actor_id,
      actor_name: r.actor_name,
      action: r.action,
      target: r.target,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
      created_at: Number(r.created_at),
    })),
    next_cursor: rows.length > limit && last ? String(last.id) : null,
  };
}
