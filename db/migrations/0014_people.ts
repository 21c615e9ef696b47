import { sql, type Kysely } from 'kysely';
import { handleFromName, numberedHandle } from '#sync/protocol/handles';
import { textType } from './portable';

// People (docs/data-model.md, "People"; docs/decisions/0022-following-feed-on-read.md).
// - profiles.handle: the name in a creator page's address (/@handle), lower case, unique. Every
//   member has one: existing members get one here, from their name with digits while it is taken;
//   new members at sign-up. (Nullable in the DDL only: SQLite cannot add a NOT NULL column to rows.)
// - profiles.followers_count / following_count: moved by follow and unfollow by the rows they
//   really insert or delete, in the same transaction (never a count read and written back).
// - follows: one row per (follower, followee). Its primary key answers "do I follow them" and the
//   following list; follows_followee answers the followers list, newest first.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('profiles').addColumn('handle', text).execute();
  await db.schema
    .alterTable('profiles')
    .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('profiles')
    .addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await giveEveryoneAHandle(db);
  await db.schema.createIndex('profiles_handle').on('profiles').column('handle').unique().execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('followee_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
    .execute();
  await db.schema.createIndex('follows_follower').on('follows').columns(['follower_id', 'created_at', 'followee_id']).execute();
  await db.schema.createIndex('follows_followee').on('follows').columns(['followee_id', 'created_at', 'follower_id']).execute();
}

/** Oldest members first: the first "asha" keeps the plain handle. */
async function giveEveryoneAHandle(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; name: string }>`select id, name from profiles order by created_at, id`.execute(db);
  const taken = new Set<string>();
  for (const { id, name } of rows) {
    const base = handleFromName(name);
    let n = 1;
    while (taken.has(numberedHandle(base, n))) n++;
    const handle = numberedHandle(base, n);
    taken.add(handle);
    await sql`update profiles set handle = ${handle} where id = ${id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('follows').execute();
  await db.schema.dropIndex('profiles_handle').execute();
  for (const column of ['following_count', 'followers_count', 'handle']) await db.schema.alterTable('profiles').dropColumn(column).execute();
}
