import { resolve, join } from 'node:path';
import { z } from 'zod';
import { isPushHostRule } from './notifications/host-names';
import { PASSWORD_PARAMS } from './auth/password';

const PRODUCTION_LOG2N = PASSWORD_PARAMS.log2N;

// Environment validated once at start-up (epic-stack style): a bad value stops the process with a
// message naming the variable, instead of failing later in some request.

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url({ protocol: /^https?$/ });

const EnvSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .min(1)
    .refine((v) => !v.includes('://') || /^(postgres(ql)?|sqlite):\/\//i.test(v), 'must be postgres://…, sqlite://… or a file path')
    .optional(),
  /** PostgreSQL only: connections in this process's pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** PostgreSQL only: a statement running longer than this is cancelled (ms; 0 turns it off). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  PUBLIC_URL: url.optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Vidi <no-reply@vidi.local>'),
  /** An Ed25519 private key as PKCS#8 PEM; generated into DATA_DIR on first start when unset. */
  JWT_PRIVATE_KEY: z.string().min(1).optional(),
  RAZORPAY_API_BASE: url.default('https://api.razorpay.com'),
  /** Directory of the built client; the server serves it when it exists. */
  CLIENT_DIST: z.string().min(1).default('./dist/client'),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  /** Reverse proxies in front of the server; 0 = clients connect directly (see server/security/client-ip.ts). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Pushes per member: a token bucket of this many, refilled at PUSH_RATE_PER_MINUTE (docs/sync.md). */
  PUSH_RATE_BURST: z.coerce.number().int().min(1).max(1_000_000_000).default(120),
  PUSH_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000_000).default(60),
  /** Base64 of 32 random bytes: encrypts provider secrets at rest; when unset, DATA_DIR/secrets.key is generated. */
  SECRETS_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (openssl rand -base64 32)')
    .optional(),
  /** New uploads are refused (507) when they would leave less free space than this under DATA_DIR (MiB; 0 turns it off). */
  UPLOAD_MIN_FREE_MIB: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024 * 1024 * 1024)
    .default(2048),
  /** 'off': this process runs no media job runner (separate `npm run worker` processes do; docs/reliability.md). */
  MEDIA_WORKER: z.enum(['on', 'off']).default('on'),
  /** ffmpeg processes one runner runs at a time. */
  MEDIA_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** Threads each ffmpeg may use (-threads). */
  MEDIA_FFMPEG_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * x264's speed preset for the renditions: slower presets make smaller files at the same quality for
   * more CPU. A small machine that falls behind its uploads can go faster; the test servers use
   * ultrafast where the picture is not what a test looks at (docs/media.md).
   */
  MEDIA_X264_PRESET: z.enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium']).default('veryfast'),
  /** Niceness of ffmpeg, so serving requests keeps the CPU first. */
  MEDIA_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /** How long a claimed job is held without a heartbeat: a dead worker's job is taken over after this. */
  MEDIA_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** ffmpeg / ffprobe to use instead of the ones on PATH (server/media/processing/ffmpeg-binaries.ts). */
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  /** Object storage (docs/deploy.md): set S3_BUCKET to keep media and tus uploads in S3 instead of DATA_DIR. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name (3-63 lowercase letters, digits, dots, dashes)')
    .optional(),
  /** The S3 API's base URL; unset means AWS itself (the SDK's endpoint for S3_REGION). */
  S3_ENDPOINT: url.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Unset: the SDK's default credential chain (instance roles, ~/.aws). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** 'true' for gateways that serve buckets as a path (/bucket/key), as most self-hosted ones do. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  /** Where the browser fetches ready renditions and posters instead of /media (docs/deploy.md, "Media from a CDN"). */
  MEDIA_PUBLIC_BASE_URL: url
    .refine((v) => !/[?#]/.test(v), 'must be a plain http(s) base URL without ?query or #fragment (media keys are appended to it)')
    .optional(),
  /** Likes on one video within this many seconds are one push ("5 people liked your video"); 0 sends each at once. */
  PUSH_LIKE_BATCH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /**
   * Tests only: the scrypt cost (log2 of N) of new password hashes instead of the production 17
   * (docs/decisions/0005-password-hashing-with-scrypt.md). A lower value is refused unless
   * NODE_ENV=test: browser tests that sign members up and in spent seconds per file in scrypt.
   */
  PASSWORD_HASH_LOG2N: z.coerce.number().int().min(10).max(20).default(17),
  /** Tests only: accept http and loopback/private push endpoints (a local push service such as web-push-testing). */
  PUSH_ALLOW_INSECURE_ENDPOINTS: z.enum(['true', 'false']).default('false'),
  /** Push services besides the browsers' own (docs/notifications.md): host names, `*.suffix`, or `*` for any public host. */
  PUSH_ENDPOINT_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.every(isPushHostRule), 'must be comma-separated host names (push.example.com), *.suffix or *; no addresses, no localhost')
    .default([]),
});

export interface MediaConfig {
  /** MEDIA_WORKER=on: the web process runs a job runner too. */
  worker: boolean;
  concurrency: number;
  ffmpegThreads: number;
  x264Preset: string;
  nice: number;
  leaseMs: number;
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  /**
   * MEDIA_PUBLIC_BASE_URL without its trailing slash: media key K is at `${publicBaseUrl}/${K}`.
   * Unset: every media URL is the app's /media/K.
   */
  publicBaseUrl: string | undefined;
}

/** Where media and tus uploads live: DATA_DIR (one machine) or an S3 bucket (any number of instances). */
export type StorageConfig =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | undefined;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** PostgreSQL pool settings (ignored on SQLite). */
  database: { poolSize: number; statementTimeoutMs: number };
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtPrivateKey: string | undefined;
  razorpayApiBase: string;
  clientDist: string;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  trustProxyHops: number;
  pushRate: { burst: number; perMinute: number };
  secretsKey: Buffer | undefined;
  /** UPLOAD_MIN_FREE_MIB in bytes. */
  uploadMinFreeBytes: number;
  mediaDir: string;
  uploadsDir: string;
  mailDir: string;
  media: MediaConfig;
  storage: StorageConfig;
  /** PASSWORD_HASH_LOG2N: the scrypt cost of new hashes (a stored hash keeps its own). */
  passwordLog2N: number;
  /** Web Push (docs/notifications.md). */
  push: { likeBatchMs: number; allowInsecureEndpoints: boolean; endpointHosts: string[] };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration from an environment; throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset: `PORT= npm start` should mean "default", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.PASSWORD_HASH_LOG2N < PRODUCTION_LOG2N && env.NODE_ENV !== 'test')
    throw new ConfigError(`Invalid configuration:\n  PASSWORD_HASH_LOG2N: under ${PRODUCTION_LOG2N} only with NODE_ENV=test (got ${e.PASSWORD_HASH_LOG2N})`);
  const dataDir = resolve(e.DATA_DIR);
  const hostForUrl = e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? join(dataDir, 'vidi.sqlite'),
    database: { poolSize: e.DATABASE_POOL_SIZE, statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS },
    publicUrl: (e.PUBLIC_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    razorpayApiBase: e.RAZORPAY_API_BASE.replace(/\/$/, ''),
    clientDist: resolve(e.CLIENT_DIST),
    logLevel: e.LOG_LEVEL,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    uploadMinFreeBytes: e.UPLOAD_MIN_FREE_MIB * 1024 * 1024,
    pushRate: { burst: e.PUSH_RATE_BURST, perMinute: e.PUSH_RATE_PER_MINUTE },
    secretsKey: e.SECRETS_KEY ? Buffer.from(e.SECRETS_KEY, 'base64') : undefined,
    mediaDir: join(dataDir, 'media'),
    uploadsDir: join(dataDir, 'uploads'),
    mailDir: join(dataDir, 'mail'),
    media: {
      worker: e.MEDIA_WORKER === 'on',
      concurrency: e.MEDIA_CONCURRENCY,
      ffmpegThreads: e.MEDIA_FFMPEG_THREADS,
      x264Preset: e.MEDIA_X264_PRESET,
      nice: e.MEDIA_NICE,
      leaseMs: e.MEDIA_LEASE_SECONDS * 1000,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      publicBaseUrl: e.MEDIA_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    },
    storage: storageConfig(e),
    passwordLog2N: e.PASSWORD_HASH_LOG2N,
    push: {
      likeBatchMs: e.PUSH_LIKE_BATCH_SECONDS * 1000,
      allowInsecureEndpoints: e.PUSH_ALLOW_INSECURE_ENDPOINTS === 'true',
      endpointHosts: e.PUSH_ENDPOINT_HOSTS,
    },
  };
}

function storageConfig(e: z.infer<typeof EnvSchema>): StorageConfig {
  if (!e.S3_BUCKET) return { kind: 'disk' };
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  };
}

/**
 * What a process that shares its database with other instances must be given rather than make up
 * for itself (docs/deploy.md): with PostgreSQL, every instance must sign with the same key, build the
 * same links and decrypt the same provider secrets. Checked by `npm start` and `npm run worker` so
 * a missing one stops the start, not the first login. Returns the problems, empty when none.
 */
export function sharedDeploymentProblems(config: Config, env: Record<string, string | undefined> = process.env): string[] {
  if (!/^postgres(ql)?:\/\//i.test(config.databaseUrl)) return [];
  const problems: string[] = [];
  const missing = (name: string, why: string) => {
    if (!env[name]) problems.push(`  ${name}: required with a PostgreSQL DATABASE_URL (${why})`);
  };
  missing('JWT_PRIVATE_KEY', 'every instance must sign sessions with the same key: an Ed25519 PKCS#8 PEM, `openssl genpkey -algorithm ed25519`');
  missing('PUBLIC_URL', 'the address members use, for links in mails and the token issuer');
  missing('SECRETS_KEY', 'every instance must decrypt the same payment secrets: `openssl rand -base64 32`');
  return problems;
}
