import { getClientDb } from '#client/sync/active-engine';
import type { ClientDb } from '#client/sync/db';

/** The app's one local database (client/sync): the sync pull keeps the leaderboards snapshot in it. */
export function localDb(): ClientDb {
  return getClientDb();
}
