import { mkdirSync } from 'node:fs';
import type { Config } from './config';
import type { AppDeps } from './context';
import { migrateToLatest, openDatabase, sqlitePathFromUrl } from '../db/connect';
import { loadSigningKeys } from './auth/keys';
import { createAccessTokens } from './auth/access-tokens';
import { createMailer } from './mail/mailer';
import { createLogger } from './logger';
import { createPokes } from './realtime/pokes';
import { LiveStreams } from './realtime/live-streams';

/** Opens the database (migrated), loads the signing key and builds everything the routers share. */
export async function createDeps(config: Config, overrides: Partial<Pick<AppDeps, 'now'>> = {}): Promise<AppDeps & { close(): Promise<void> }> {
  for (const dir of [config.dataDir, config.mediaDir, config.uploadsDir]) mkdirSync(dir, { recursive: true });
  const log = createLogger(config.logLevel);
  const { db, sqlite, close } = openDatabase(sqlitePathFromUrl(config.databaseUrl));
  await migrateToLatest(db);
  const now = overrides.now ?? Date.now;
  const keys = await loadSigningKeys(config.dataDir, config.jwtPrivateKey);
  return {
    config,
    db,
    sqlite,
    log,
    now,
    pokes: createPokes(),
    liveStreams: new LiveStreams(),
    tokens: createAccessTokens(keys, config.publicUrl, now),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: config.mailDir, log }),
    close,
  };
}
