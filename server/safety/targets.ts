import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { ReportTargetType } from '#sync/protocol/report-reasons';
import type { ReportSnapshot } from '#sync/rest-api/moderation';
import { mediaUrl } from '../media/urls';

// What a report is about, read as it is now: the evidence a report keeps (its snapshot), whose it
// is (the member `suspend` acts on), and the queue's target_state.

type Db = Kysely<Database> | Transaction<Database>;

/** A target that can still be reported: its snapshot and the member it belongs to. */
export interface LiveTarget {
  snapshot: ReportSnapshot;
  ownerId: string;
}

const person = (p: { id: string; name: string; handle: string | null }) => ({ id: p.id, name: p.name, handle: p.handle });

async function liveVideo(db: Db, id: string): Promise<LiveTarget | undefined> {
  // Any media state counts: a video being processed or failed can still be reported; a deleted one is gone.
  const v = await db
    .selectFrom('videos')
    .innerJoin('profiles', 'profiles.id', 'videos.user_id')
    .select(['videos.title', 'videos.description', 'videos.poster_key', 'profiles.id', 'profiles.name', 'profiles.handle'])
    .where('videos.id', '=', id)
    .executeTakeFirst();
  return v && { ownerId: v.id, snapshot: { title: v.title, description: v.description, uploader: person(v), poster_url: mediaUrl(v.poster_key) } };
}

async function liveComment(db: Db, id: string): Promise<LiveTarget | undefined> {
  const c = await db
    .selectFrom('comments')
    .innerJoin('profiles', 'profiles.id', 'comments.user_id')
    .leftJoin('videos', 'videos.id', 'comments.video_id')
    .select(['comments.content', 'comments.video_id', 'videos.title as video_title', 'profiles.id', 'profiles.name', 'profiles.handle'])
    .where('comments.id', '=', id)
    .where('comments.deleted', '=', 0)
    .executeTakeFirst();
  return c && { ownerId: c.id, snapshot: { text: c.content, author: person(c), video_id: c.video_id, video_title: c.video_title } };
}

async function liveMember(db: Db, id: string): Promise<LiveTarget | undefined> {
  const p = await db
    .selectFrom('profiles')
    .select(['id', 'name', 'handle'])
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .where('account_status', '=', 'active')
    .executeTakeFirst();
  return p && { ownerId: p.id, snapshot: person(p) };
}

/** The target if it can be reported (a video in any state, a comment not deleted, an active member); undefined when gone. */
export function liveTarget(db: Db, type: ReportTargetType, id: string): Promise<LiveTarget | undefined> {
  if (type === 'video') return liveVideo(db, id);
  if (type === 'comment') return liveComment(db, id);
  return liveMember(db, id);
}

/** The member a resolve's `suspend` acts on: the uploader, the author, or the member reported (as now, else as the snapshot says). */
export function ownerOf(type: ReportTargetType, snapshot: ReportSnapshot): string {
  if (type === 'video' && 'uploader' in snapshot) return snapshot.uploader.id;
  if (type === 'comment' && 'author' in snapshot) return snapshot.author.id;
  return (snapshot as { id: string }).id;
}

export type TargetState = 'exists' | 'removed' | 'suspended';

/** The key of targetStates' answer. */
export const targetKey = (type: string, id: string) => `${type}:${id}`;

/** Whether each target still exists, was removed, or (a member) is suspended: three reads for a whole page. */
export async function targetStates(db: Db, targets: ReadonlyArray<{ target_type: string; target_id: string }>): Promise<Map<string, TargetState>> {
  const idsOf = (type: string) => [...new Set(targets.filter((t) => t.target_type === type).map((t) => t.target_id))];
  const [videos, comments, members] = [idsOf('video'), idsOf('comment'), idsOf('member')];
  const out = new Map<string, TargetState>();
  const key = targetKey;
  if (videos.length) {
    for (const v of await db.selectFrom('videos').select('id').where('id', 'in', videos).execute()) out.set(key('video', v.id), 'exists');
  }
  if (comments.length) {
    const rows = await db.selectFrom('comments').select('id').where('id', 'in', comments).where('deleted', '=', 0).execute();
    for (const c of rows) out.set(key('comment', c.id), 'exists');
  }
  if (members.length) {
    for (const p of await db.selectFrom('profiles').select(['id', 'is_active']).where('id', 'in', members).execute()) {
      out.set(key('member', p.id), p.is_active === 1 ? 'exists' : 'suspended');
    }
  }
  for (const t of targets) if (!out.has(key(t.target_type, t.target_id))) out.set(key(t.target_type, t.target_id), 'removed');
  return out;
}
