import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { notifications } from '#sync/entities/registry';
import { mentionedHandles } from '#sync/protocol/mentions';
import type { Changes } from '../changes/changes';
import { derivedNotificationId, dueNow } from './create';
import { quietMembers } from './quiet-members';

// Mentions (docs/notifications.md, "mention"): the members an `@handle` names, read by the same
// rules the comment list shows links by (sync/protocol/mentions.ts). An unknown handle names nobody.

type Trx = Transaction<Database>;

/** The ids of the members whose handles the text mentions (one lookup of profiles_handle). */
export async function mentionedMembers(trx: Trx, text: string): Promise<string[]> {
  const handles = mentionedHandles(text);
  if (!handles.length) return [];
  const rows = await trx.selectFrom('profiles').select('id').where('handle', 'in', handles).execute();
  return rows.map((r) => r.id);
}

/**
 * A video's title or description mentions members: each is told once, when the video first
 * becomes visible to others (ready), never its uploader, nor a member who muted or blocked the
 * uploader or whom the uploader blocked. The id is derived from the video and the member, so a job
 * run again writes nothing more.
 */
export async function notifyVideoMentions(
  trx: Trx,
  changes: Changes,
  v: { videoId: string; ownerId: string; title: string; description: string | null },
): Promise<void> {
  const mentioned = (await mentionedMembers(trx, `${v.title}\n${v.description ?? ''}`)).filter((id) => id !== v.ownerId);
  const quiet = await quietMembers(trx, v.ownerId, mentioned);
  const told = mentioned.filter((id) => !quiet.has(id));
  if (!told.length) return;
  const owner = await trx.selectFrom('profiles').select('name').where('id', '=', v.ownerId).executeTakeFirst();
  const now = changes.now;
  const rows = told.map((userId) => ({
    id: derivedNotificationId('mention', `${v.videoId}:${userId}`),
    user_id: userId,
    kind: 'mention',
    video_id: v.videoId,
    count: 1,
    actor_name: owner?.name ?? null,
    actor_id: v.ownerId,
    detail: v.title,
    created_at: now,
    updated_at: now,
    push_due_at: now,
  }));
  const written = await trx
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning(['id', 'user_id'])
    .execute();
  if (!written.length) return;
  for (const r of written) changes.row(notifications, { id: r.id, user_id: r.user_id, read_at: null });
  dueNow(changes);
}
