import { openClientDb, type ClientDb } from '../../../data/db';

let db: ClientDb | undefined;

/** The device's local database (client/data): the sync pull keeps the leaderboards snapshot in it. */
export function localDb(): ClientDb {
  db ??= openClientDb();
  return db;
}
