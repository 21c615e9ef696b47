import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { FEED_WINDOW, type FeedItem } from '#sync/protocol/messages';
import { readVideosByIds, type ReadVia } from '../videos/feed-rows';
import { entities } from '#sync/entities/registry';
import type { PullRule } from '#sync/entities/define-entity';

/** More changes than this since the cursor: a full snapshot is cheaper than replaying them. */
export const MAX_INCREMENTAL_CHANGES = 2000;

/** What a client at some cursor must re-read: the change log after it, folded by the entities' pull rules. */
export interface ChangeSets {
  /** How many change-log rows were folded (0: nothing moved). */
  count: number;
  changedVideos: Set<string>;
  deletedVideos: Set<string>;
  /** Rows of the followed video lists (comments) changed or gone. */
  changedComments: Set<string>;
  deletedComments: Set<string>;
  /** Members whose shown name or handle changed: their cards and comments are read again. */
  renamedUsers: Set<string>;
  /** Members whose own profile (status, counts) changed: sent to them alone. */
  accounts: Set<string>;
  /** Members whose devices load a snapshot (Changes.resync: a block or a mute). */
  resyncs: Set<string>;
  /** Changed rows of `own` entities, by the change log's entity, then by their member. */
  own: Map<string, Map<string, Set<string>>>;
}

/**
 * The change log after `since` as sets of ids, or null when there are too many changes (a
 * snapshot is cheaper). List rows are only followed for `open` videos whose list is not sent in
 * full (`load`). Shared by pulls and by the live deltas (server/realtime/shared-deltas.ts).
 */
export async function readChangeSets(trx: Transaction<Database>, since: number, open: string[], load: ReadonlySet<string>): Promise<ChangeSets | null> {
  const changes = await trx
    .selectFrom('change_log')
    .select(['entity', 'entity_id', 'video_id', 'user_id', 'deleted'])
    .where('seq', '>', since)
    .orderBy('seq')
    .limit(MAX_INCREMENTAL_CHANGES + 1)
    .execute();
  if (changes.length > MAX_INCREMENTAL_CHANGES) return null;

  const sets = classifyChanges(changes, open, load);
  if (sets.renamedUsers.size) await expandRenames(trx, sets, open, load);
  return sets;
}

type ChangeRow = Pick<Database['change_log'], 'entity' | 'entity_id' | 'video_id' | 'user_id' | 'deleted'>;

/** Each change-log entity's pull rule, from the registry (sync/entities/registry.ts). */
const pullRules = new Map<string, PullRule>(Object.values(entities).map((e) => [e.log.entity, e.log.pull]));

type Fold = (sets: ChangeSets, ch: ChangeRow, followed: (videoId: string) => boolean) => void;

/** What each pull rule adds to the sets (define-entity.ts, PullRule, says what each means). */
const folds: Record<PullRule, Fold> = {
  video: (sets, ch) => void (ch.deleted ? sets.deletedVideos : sets.changedVideos).add(ch.entity_id),
  'video-counts': (sets, ch) => void (ch.video_id && sets.changedVideos.add(ch.video_id)),
  'video-list': (sets, ch, followed) => {
    if (!ch.video_id) return;
    sets.changedVideos.add(ch.video_id);
    if (followed(ch.video_id)) (ch.deleted ? sets.deletedComments : sets.changedComments).add(ch.entity_id);
  },
  author: (sets, ch) => void sets.renamedUsers.add(ch.entity_id),
  own: (sets, ch) => {
    if (!ch.user_id) return;
    let byMember = sets.own.get(ch.entity);
    if (!byMember) sets.own.set(ch.entity, (byMember = new Map()));
    addTo(byMember, ch.user_id, ch.entity_id);
  },
};

/** Folds the change-log rows into id sets by each entity's pull rule; `account` changes are the member's own profile, `resync` their snapshot. */
export function classifyChanges(changes: readonly ChangeRow[], open: readonly string[], load: ReadonlySet<string>): ChangeSets {
  const sets: ChangeSets = {
    count: changes.length,
    changedVideos: new Set(),
    deletedVideos: new Set(),
    changedComments: new Set(),
    deletedComments: new Set(),
    renamedUsers: new Set(),
    accounts: new Set(),
    resyncs: new Set(),
    own: new Map(),
  };
  const openSet = new Set(open);
  const followed = (videoId: string) => openSet.has(videoId) && !load.has(videoId);
  for (const ch of changes) {
    const rule = pullRules.get(ch.entity);
    if (rule) folds[rule](sets, ch, followed);
    else if (ch.entity === 'account') sets.accounts.add(ch.entity_id);
    else if (ch.entity === 'resync') sets.resyncs.add(ch.entity_id);
  }
  return sets;
}

function addTo(groups: Map<string, Set<string>>, key: string, id: string): void {
  const group = groups.get(key);
  if (group) group.add(id);
  else groups.set(key, new Set([id]));
}

/** A new name shows on the author's cards in the window and on their comments in open lists. */
async function expandRenames(trx: Transaction<Database>, sets: ChangeSets, open: readonly string[], load: ReadonlySet<string>): Promise<void> {
  const ids = [...sets.renamedUsers];
  const vids = await trx.selectFrom('videos').select('id').where('user_id', 'in', ids).orderBy('created_at', 'desc').limit(FEED_WINDOW).execute();
  for (const v of vids) sets.changedVideos.add(v.id);
  const toFollow = open.filter((id) => !load.has(id));
  if (!toFollow.length) return;
  const cs = await trx.selectFrom('comments').select('id').where('user_id', 'in', ids).where('video_id', 'in', toFollow).execute();
  for (const c of cs) sets.changedComments.add(c.id);
}

/**
 * The videos a change set names, as `viewer` sees them, and the ids to send as deleted: those
 * logged as gone and those whose row is gone or no longer visible (a pull and a poke's delta alike).
 */
export async function readVideoChanges(via: ReadVia, viewer: string, sets: ChangeSets): Promise<{ videos: FeedItem[]; deletedVideos: string[] }> {
  const videos = await readVideosByIds(via, viewer, [...sets.changedVideos]);
  const present = new Set(videos.map((v) => v.id));
  const deleted = new Set(sets.deletedVideos);
  for (const id of sets.changedVideos) if (!present.has(id)) deleted.add(id);
  return { videos, deletedVideos: [...deleted].filter((id) => !present.has(id)) };
}
