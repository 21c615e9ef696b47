import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { readLeaderboards } from '../rewards/leaderboards';
import { COMMENTS_PER_VIDEO, FEED_WINDOW, type CommentItem, type PullResponse } from '../../sync/protocol/messages';
import { readCommentsByIds, readCommentsPage, readFeedPage, readVideosByIds } from '../videos/feed-rows';
import { readChangeSets } from './pull-changes';

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
    const sets = since === null || since > head ? null : await readChangeSets(trx, since, open, load);

    const lastMutationId = req.client_id
      ? ((await trx.selectFrom('sync_clients').select('last_mutation_id').where('client_id', '=', req.client_id).where('user_id', '=', user.id).executeTakeFirst())
          ?.last_mutation_id ?? 0)
      : 0;

    const base = {
      cursor: String(head),
      comments_loaded: [] as string[],
      last_mutation_id: lastMutationId,
    };

    if (!sets) {
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

    const { changedVideos, deletedVideos, changedComments, deletedComments } = sets;
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
      profile: sets.renamedUsers.has(user.id) ? await readProfile(trx, user.id) : null,
      // Likes, comments, views, deletions and renames all move or relabel the boards.
      leaderboards: sets.count ? await readLeaderboards(trx, user.id, deps.now()) : null,
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

/** The caller's own profile as a pull carries it (also read by the live deltas). */
export async function readProfile(trx: Transaction<Database>, userId: string) {
  const p = await trx.selectFrom('profiles').select(['id', 'email', 'name', 'is_admin', 'created_at']).where('id', '=', userId).executeTakeFirst();
  return p ? { id: p.id, email: p.email, name: p.name, is_admin: p.is_admin === 1, created_at: new Date(p.created_at).toISOString() } : null;
}
