import { getClientDb } from '../../../data/session';
import type { ClientDb } from '../../../data/db';

/** The app's one local database (client/data): the sync pull keeps the leaderboards snapshot in it. */
export function localDb(): ClientDb {
  return getClientDb();
}
