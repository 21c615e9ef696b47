import { parseArgs } from 'node:util';

// The seed CLI's options: `npm run seed -- --help` prints HELP.

export const HELP = `Usage: npm run seed -- [--users N] [--videos N] [--likes N] [--comments N] [--views N] [--follows-per-member N] [--password P] [--seed N]
Adds synthetic data to the server's database: DATABASE_URL (postgres://…), else the SQLite file in DATA_DIR
(same environment as the server). Stop the server first.
  --follows-per-member N  every seeded member follows N other seeded members (default 0: no follow graph)
  --password P   give every seeded member this password (they can then log in; default: no password)
  --seed N       random seed: the same seed on the same database gives the same data (default: 1)`;

export interface SeedOptions {
  users: number;
  videos: number;
  likes: number;
  comments: number;
  views: number;
  /** Each seeded member follows this many others (distinct, never themselves); 0 when absent. */
  followsPerMember?: number;
  password: string | undefined;
  seed: number;
}

export function parseSeedOptions(argv: string[]): SeedOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      users: { type: 'string', default: '50' },
      videos: { type: 'string', default: '200' },
      likes: { type: 'string', default: '1000' },
      comments: { type: 'string', default: '300' },
      views: { type: 'string', default: '1000' },
      'follows-per-member': { type: 'string', default: '0' },
      password: { type: 'string' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const count = (name: string, v: string, min = 0): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min} (got "${v}")`);
    return n;
  };
  const o: SeedOptions = {
    users: count('users', values.users, 1),
    videos: count('videos', values.videos),
    likes: count('likes', values.likes),
    comments: count('comments', values.comments),
    views: count('views', values.views),
    followsPerMember: count('follows-per-member', values['follows-per-member']),
    password: values.password,
    seed: count('seed', values.seed),
  };
  const pairs = o.users * o.videos;
  // A member likes (or counts a view of) a video at most once: the primary keys say so.
  if (o.likes > pairs) throw new UsageError(`--likes ${o.likes} exceeds users x videos (${pairs})`);
  if (o.views > pairs) throw new UsageError(`--views ${o.views} exceeds users x videos (${pairs})`);
  if (o.followsPerMember! > o.users - 1) throw new UsageError(`--follows-per-member ${o.followsPerMember} exceeds the other members (${o.users - 1})`);
  if (o.videos === 0 && (o.likes || o.comments || o.views)) throw new UsageError('likes, comments and views need --videos > 0');
  if (o.password !== undefined && o.password.length < 8) throw new UsageError('--password needs at least 8 characters');
  return o;
}

export class UsageError extends Error {}
