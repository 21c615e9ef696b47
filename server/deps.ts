import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import type { Config } from './config';
import type { AppDeps } from './context';
import { migrateToLatest, openDatabase } from '#db/connect';
import { loadSigningKeys } from './auth/keys';
import { createAccessTokens } from './auth/access-tokens';
import { createMailer } from './mail/mailer';
import { createLogger } from './logger';
import { openPokes } from './changes/open-pokes';
import { rebuildScoresIfMarked } from './rewards/recompute';
import { LiveStreams } from './realtime/live-streams';
import { loadSecretBox } from './settings/secret-box';
import { sealStoredSecrets } from './settings/payment-secrets';
import { openMediaStore } from './storage/open-media-store';
import { setMediaPublicBase } from './feed/public-media';
import { configuredPasswordParams } from './auth/password';

/** Opens the database (migrated), loads the signing key and builds everything the routers share. */
/**
 * `servesStreams: false` (a media worker): its pokes are only sent to the instances, it listens for
 * none (no LISTEN connection on PostgreSQL).
 */
export async function createDeps(
  config: Config,
  overrides: Partial<Pick<AppDeps, 'now' | 'passwordParams'>> & { servesStreams?: boolean } = {},
): Promise<AppDeps & { close(): Promise<void> }> {
  // Created owner-only (0700): the database, keys and mail (live links) live here. An existing
  // DATA_DIR is the operator's to set; the mail folder of an older version is tightened. umask is
  // not used: it is process-wide, and refused in worker threads.
  for (const dir of [config.dataDir, config.mediaDir, config.uploadsDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (existsSync(config.mailDir)) chmodSync(config.mailDir, 0o700);
  const log = createLogger(config.logLevel);
  const { db, engine, close } = openDatabase(config.databaseUrl, {
    ...config.database,
    onConnectionError: (err) => log.error('database connection lost', err),
  });
  await migrateToLatest(db);
  if (await rebuildScoresIfMarked(db)) log.info('leaderboard counters rebuilt under the current rules');
  const now = overrides.now ?? Date.now;
  const keys = await loadSigningKeys(config.dataDir, config.jwtPrivateKey);
  const secrets = loadSecretBox(config.dataDir, config.secretsKey);
  await sealStoredSecrets(db, secrets, now(), log);
  const media = openMediaStore(config);
  setMediaPublicBase(config.media.publicBaseUrl);
  // On PostgreSQL the pokes reach every instance of the database (LISTEN/NOTIFY, server/changes/pokes-postgres.ts).
  const pokes = openPokes(engine, config.databaseUrl, log, overrides.servesStreams ?? true);
  return {
    config,
    db,
    engine,
    log,
    now,
    passwordParams: overrides.passwordParams ?? configuredPasswordParams(config),
    pokes,
    liveStreams: new LiveStreams(),
    secrets,
    tokens: createAccessTokens(keys, config.publicUrl, now),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: config.mailDir, log }),
    media,
    close: async () => {
      await pokes.close();
      await media.close();
      await close();
    },
  };
}
