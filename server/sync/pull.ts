import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { readLeaderboards } from '../rewards/leaderboards';
import { COMMENTS_PER_VIDEO, FEED_WINDOW, type CommentItem, type PullResponse } from '../../sync/protocol/messages';
import { readCommentsByIds, readCommentsPage, readFeedPage, readVideosByIds } from '../videos/feed-rows';

/** More changes than this since the cursor: a full snapshot is cheaper than replaying them. */
const MAX_INCREMENTAL_CHANGES = 2000;

export interface PullInput {
  client_id?: string | undefined;
  cursor: string | null;
  open_videos: string[];
  load_comments: string[];
}

/**
 * Answers a pull in one read transaction, so the returned cursor (the newest change-log seq) and the
 * rows agree: every change at or below the cursor is in the rows, nothing above it is.
 */
export async function processPull(deps: AppDeps, user: AuthUser, req: PullInput): Promise<PullResponse> {
  let since: number | null = null;
  if (req.cursor !== null) {
    if (!/^\d{1,15}$/.test(req.cursor)) throw new ApiError(400, 'invalid_cursor', 'The cursor must be the decimal string a previous pull returned.');
    since = Number(req.cursor);
  }
  const open = [...new Set(req.open_videos)];
  const load = new Set(req.load_comments.filter((id) => open.includes(id)));

  return deps.db.transaction().execute(async (trx) => {
    const head = Number((await trx.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0);
    // A cursor from the future (another database, a restore) or too far behind: start over.
    let reset = since === null || since > head;
    const changes = reset
      ? []
      : await trx
          .selectFrom('change_log')
          .select(['entity', 'entity_id', 'video_id', 'user_id', 'deleted'])
          .where('seq', '>', since!)
          .orderBy('seq')
          .limit(MAX_INCREMENTAL_CHANGES + 1)
          .execute();
    if (changes.length > MAX_INCREMENTAL_CHANGES) reset = true;

    const lastMutationId = req.client_id
      ? ((await trx.selectFrom('sync_clients').select('last_mutation_id').where('client_id', '=', req.client_id).where('user_id', '=', user.id).executeTakeFirst())
          ?.last_mutation_id ?? 0)
      : 0;

    const base = {
      cursor: String(head),
      comments_loaded: [] as string[],
      last_mutation_id: lastMutationId,
    };

    if (reset) {
      const window = readFeedPage(deps.sqlite, user.id, FEED_WINDOW, null).items;
      const { comments, loaded } = fullComments(deps, open);
      return {
        ...base,
        reset: true,
        videos: window,
        deleted_videos: [],
        comments,
        deleted_comments: [],
        comments_loaded: loaded,
        profile: await readProfile(trx, user.id),
        leaderboards: await readLeaderboards(trx, user.id, deps.now()),
      };
    }

    const changedVideos = new Set<string>();
    const deletedVideos = new Set<string>();
    const changedComments = new Set<string>();
    const deletedComments = new Set<string>();
    const renamedUsers = new Set<string>();
    let profileChanged = false;
    const openSet = new Set(open);
    for (const ch of changes) {
      switch (ch.entity) {
        case 'video':
          (ch.deleted ? deletedVideos : changedVideos).add(ch.entity_id);
          break;
        case 'like':
          if (ch.video_id) changedVideos.add(ch.video_id);
          break;
        case 'comment':
          if (ch.video_id) changedVideos.add(ch.video_id);
          if (ch.video_id && openSet.has(ch.video_id) && !load.has(ch.video_id)) (ch.deleted ? deletedComments : changedComments).add(ch.entity_id);
          break;
        case 'profile':
          renamedUsers.add(ch.entity_id);
          if (ch.entity_id === user.id) profileChanged = true;
          break;
      }
    }

    if (renamedUsers.size) {
      // A new name shows on the author's cards in the window and on their comments in open lists.
      const ids = [...renamedUsers];
      const vids = await trx.selectFrom('videos').select('id').where('user_id', 'in', ids).orderBy('created_at', 'desc').limit(FEED_WINDOW).execute();
      for (const v of vids) changedVideos.add(v.id);
      const toFollow = open.filter((id) => !load.has(id));
      if (toFollow.length) {
        const cs = await trx.selectFrom('comments').select('id').where('user_id', 'in', ids).where('video_id', 'in', toFollow).execute();
        for (const c of cs) changedComments.add(c.id);
      }
    }

    const videos = readVideosByIds(deps.sqlite, user.id, [...changedVideos]);
    const present = new Set(videos.map((v) => v.id));
    for (const id of changedVideos) if (!present.has(id)) deletedVideos.add(id);
    const comments = readCommentsByIds(deps.sqlite, [...changedComments]);
    const presentComments = new Set(comments.map((c) => c.id));
    for (const id of changedComments) if (!presentComments.has(id)) deletedComments.add(id);
    const full = fullComments(deps, [...load]);

    return {
      ...base,
      reset: false,
      videos,
      deleted_videos: [...deletedVideos].filter((id) => !present.has(id)),
      comments: [...comments, ...full.comments],
      deleted_comments: [...deletedComments],
      comments_loaded: full.loaded,
      profile: profileChanged ? await readProfile(trx, user.id) : null,
      // Likes, comments, views, deletions and renames all move or relabel the boards.
      leaderboards: changes.length ? await readLeaderboards(trx, user.id, deps.now()) : null,
    };
  });
}

function fullComments(deps: AppDeps, videoIds: string[]): { comments: CommentItem[]; loaded: string[] } {
  const comments: CommentItem[] = [];
  const loaded: string[] = [];
  for (const id of videoIds) {
    comments.push(...readCommentsPage(deps.sqlite, id, COMMENTS_PER_VIDEO, null).items);
    loaded.push(id);
  }
  return { comments, loaded };
}

async function readProfile(trx: Transaction<Database>, userId: string) {
  const p = await trx.selectFrom('profiles').select(['id', 'email', 'name', 'is_admin', 'created_at']).where('id', '=', userId).executeTakeFirst();
  return p ? { id: p.id, email: p.email, name: p.name, is_admin: p.is_admin === 1, created_at: new Date(p.created_at).toISOString() } : null;
}
