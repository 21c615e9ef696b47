import type { SeedOptions } from './seed-options';
import { pickDistinct, sortedIds, spread } from './seed-random';
import { followGraph, type FollowGraph } from './seed-follows';
import { seedFiling } from './seed-hashtags';
import { memberName, videoTexts } from './seed-words';

// The seed's rows, the same on both engines: each table's rows are generated straight into the
// engine's loader (seed-sqlite.ts, seed-postgres.ts). The loads run one after the other in the
// order given, so the random numbers are drawn in the same order on both engines and the same seed
// on the same database gives the same data.

/**
 * Where rows go. `row` takes one value per column; it returns `true` when the loader wants
 * `drain()` awaited before the next row (a full batch on PostgreSQL). On SQLite `row` is the
 * prepared statement's own `run`, called directly: no array per row, and never a drain, so a load
 * runs synchronously inside its transaction.
 */
export interface RowSink {
  row: (...values: unknown[]) => unknown;
  drain(): Promise<void>;
}

export interface TableLoad {
  table: 'profiles' | 'credentials' | 'videos' | 'likes' | 'views' | 'comments' | 'follows' | 'hashtags' | 'video_hashtags' | 'video_hashtags_top';
  columns: readonly string[];
  /** Writes the rows in primary-key order (appending to the B-tree). */
  write(out: RowSink): Promise<void>;
}

/** A timed step of the seed (`users`, `videos`, …) and the tables it fills. */
export interface SeedStep {
  name: string;
  loads: TableLoad[];
}

export interface SeedMedia {
  fileKey: string;
  posterKey: string | null;
  size: number;
  sha256: string;
  durationMs: number;
}

export interface SeedContext {
  rand: () => number;
  now: number;
  /** Makes this run's e-mail addresses unique on a database seeded before. */
  tag: string;
  media: SeedMedia;
  passwordHash: string | null;
  /**
   * Tags already in the database, each with 0: the seed adds the videos it files under them here
   * (the caller moves their counts), and writes a hashtags row only for the new tags.
   */
  existingTags: Map<string, number>;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The steps of one seed run. Counters are fixed before the rows are written (the spreads below),
 * so videos.*_count always equals the rows.
 */
export function seedSteps(o: SeedOptions, c: SeedContext): SeedStep[] {
  const { rand, now, media } = c;
  const texts = videoTexts(rand);
  const userIds = sortedIds(o.users, rand);
  const videoIds = sortedIds(o.videos, rand);
  const likesPer = spread(o.likes, o.videos, o.users, rand);
  const viewsPer = spread(o.views, o.videos, o.users, rand);
  const commentsPer = spread(o.comments, o.videos, Number.MAX_SAFE_INTEGER, rand);
  const videoOwner = new Uint32Array(o.videos);
  const videoAt = new Float64Array(o.videos);
  const userAt = new Float64Array(o.users);
  const joined = now - 120 * DAY;
  const perm = new Uint32Array(o.users).map((_, i) => i);
  const afterVideo = (j: number) => videoAt[j]! + Math.floor(rand() * (now - videoAt[j]!));
  // Every seeded video is ready: filed under its tags as a video that becomes ready is.
  const filing = seedFiling({ ids: videoIds, at: videoAt, likes: likesPer }, now, c.existingTags);

  let graph: FollowGraph | undefined;
  const profiles: TableLoad = {
    table: 'profiles',
    columns: [
      'id',
      'email',
      'name',
      'handle',
      'is_admin',
      'is_active',
      'account_status',
      'email_verified_at',
      'created_at',
      'updated_at',
      'followers_count',
      'following_count',
    ],
    async write(out) {
      // The graph first: the counters are written with the profiles (drawn only with --follows-per-member).
      const g = (graph = followGraph(o.users, o.followsPerMember ?? 0, rand));
      for (let i = 0; i < o.users; i++) {
        const at = (userAt[i] = joined + Math.floor(rand() * DAY));
        const { name, stem } = memberName(i, rand);
        // A valid handle (sync/protocol/handles.ts), unique across seed runs by the run's tag.
        const handle = `${stem}_${c.tag}_${i}`;
        const row = out.row(userIds[i], `seed-${c.tag}-${i}@seed.vidi.test`, name, handle, 0, 1, 'active', at, at, at, g.followers[i], g.perMember);
        if (row === true) await out.drain();
      }
    },
  };
  const credentials: TableLoad = {
    table: 'credentials',
    columns: ['user_id', 'password_hash', 'updated_at'],
    async write(out) {
      if (c.passwordHash) for (let i = 0; i < o.users; i++) if (out.row(userIds[i], c.passwordHash, userAt[i]) === true) await out.drain();
    },
  };
  const videos: TableLoad = {
    table: 'videos',
    columns: [
      'id',
      'user_id',
      'title',
      'description',
      'file_key',
      'mime_type',
      'size_bytes',
      'duration_ms',
      'sha256',
      'poster_key',
      'created_at',
      'likes_count',
      'comments_count',
      'shares_count',
      'views_count',
    ],
    async write(out) {
      // Oldest first, as a server writes them: the rows' physical order (PostgreSQL's heap, SQLite's
      // rowids) follows created_at, so a read that walks the newest videos (the feed, a search's
      // candidates) touches neighbouring pages as it would in production, not one page per row.
      for (let j = 0; j < o.videos; j++) videoAt[j] = now - 90 * DAY + Math.floor(rand() * 90 * DAY);
      videoAt.sort();
      for (let j = 0; j < o.videos; j++) {
        videoOwner[j] = Math.floor(rand() * o.users);
        const { title, description } = texts();
        filing.note(j, title, description);
        const full = out.row(
          videoIds[j],
          userIds[videoOwner[j]!],
          title,
          description,
          media.fileKey,
          'video/mp4',
          media.size,
          media.durationMs,
          media.sha256,
          media.posterKey,
          videoAt[j],
          likesPer[j],
          commentsPer[j],
          0,
          viewsPer[j],
        );
        if (full === true) await out.drain();
      }
    },
  };
  /** Likes and views: distinct members per video, ascending, so rows arrive in key order. */
  const pairs = (table: 'likes' | 'views', per: Uint32Array): TableLoad => ({
    table,
    columns: table === 'likes' ? ['video_id', 'user_id', 'created_at'] : ['video_id', 'user_id', 'watched_ms', 'created_at'],
    async write(out) {
      for (let j = 0; j < o.videos; j++) {
        for (const u of pickDistinct(perm, per[j]!, rand)) {
          const full = table === 'likes' ? out.row(videoIds[j], userIds[u], afterVideo(j)) : out.row(videoIds[j], userIds[u], media.durationMs, afterVideo(j));
          if (full === true) await out.drain();
        }
      }
    },
  });
  const comments: TableLoad = {
    table: 'comments',
    columns: ['id', 'video_id', 'user_id', 'content', 'created_at'],
    async write(out) {
      const ids = sortedIds(o.comments, rand);
      let k = 0;
      for (let j = 0; j < o.videos; j++) {
        for (let n = 0; n < commentsPer[j]!; n++) {
          const w = texts().title.toLowerCase();
          if (out.row(ids[k++], videoIds[j], userIds[Math.floor(rand() * o.users)], `Love the ${w}!`, afterVideo(j)) === true) await out.drain();
        }
      }
    },
  };
  const follows: TableLoad = {
    table: 'follows',
    columns: ['follower_id', 'followee_id', 'created_at'],
    async write(out) {
      const g = graph!;
      for (let i = 0; i < o.users; i++) {
        for (let k = 0; k < g.perMember; k++) {
          const j = g.followees[i * g.perMember + k]!;
          const since = Math.max(userAt[i]!, userAt[j]!);
          if (out.row(userIds[i], userIds[j], since + Math.floor(rand() * (now - since))) === true) await out.drain();
        }
      }
    },
  };
  return [
    { name: 'users', loads: [profiles, credentials] },
    ...(o.followsPerMember ? [{ name: 'follows', loads: [follows] }] : []),
    { name: 'videos', loads: [videos] },
    { name: 'hashtags', loads: [filing.hashtags, filing.videoHashtags, filing.videoHashtagsTop] },
    { name: 'likes', loads: [pairs('likes', likesPer)] },
    { name: 'views', loads: [pairs('views', viewsPer)] },
    { name: 'comments', loads: [comments] },
  ];
}
