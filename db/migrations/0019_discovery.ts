import { sql, type Kysely } from 'kysely';
import { hashtagsOf } from '#sync/protocol/hashtags';
import { onPostgres, textType } from './portable';

// Discovery (docs/data-model.md, "Discovery"; docs/decisions/0025-discovery.md): hashtags and search.
// - hashtags: one row per tag ever filed, with the count of ready videos that carry it (moved by the
//   rows video_hashtags really gains or loses, in the same transaction) and whether an admin hid it.
// - video_hashtags: one row per ready video and tag (server/discovery/video-hashtags.ts files a
//   video when it becomes ready, and unfiles it before it is deleted). created_at and likes_count are
//   the video's, copied so that a tag page's two orders are each one index range:
//   video_hashtags_recent and video_hashtags_top. A trigger keeps likes_count in step with the video.
// - Search, SQLite: FTS5 tables over the videos' titles and descriptions and the members' names,
//   external-content (they index, the rows keep the text), kept in step by triggers; unicode61
//   folds case and Latin accents ("jose" finds "José") and keeps every script's letters and marks.
//   They key on the rows' rowids, which nothing renumbers (no VACUUM; after one, the 'rebuild'
//   command restores them).
// - Search, PostgreSQL: vidi_fold() (lower case, unaccent) under a generated tsvector of each video
//   with the 'simple' configuration (members write in many languages: no stemming, no stop
//   words), title weighted above description, in a GIN index; a GIN index of the words of each
//   folded name (the same tsvector), which answers a word start ('jose':*) without a recheck.

const FTS_TOKENIZER = `tokenize = "unicode61 remove_diacritics 2"`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('hashtags')
    .addColumn('tag', text, (c) => c.primaryKey())
    .addColumn('videos_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('video_hashtags')
    .addColumn('tag', text, (c) => c.notNull().references('hashtags.tag'))
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('video_hashtags_pk', ['tag', 'video_id'])
    .execute();
  await db.schema.createIndex('video_hashtags_recent').on('video_hashtags').columns(['tag', 'created_at', 'video_id']).execute();
  await db.schema.createIndex('video_hashtags_top').on('video_hashtags').columns(['tag', 'likes_count', 'created_at', 'video_id']).execute();
  await db.schema.createIndex('video_hashtags_video').on('video_hashtags').column('video_id').execute();
  if (onPostgres(db)) await postgresSearch(db);
  else await sqliteSearch(db);
  await fileReadyVideos(db);
}

async function sqliteSearch(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TRIGGER videos_likes_to_tags AFTER UPDATE OF likes_count ON videos WHEN new.likes_count <> old.likes_count
      BEGIN UPDATE video_hashtags SET likes_count = new.likes_count WHERE video_id = new.id; END`,
    `CREATE VIRTUAL TABLE videos_fts USING fts5(title, description, content = 'videos', content_rowid = 'rowid', ${FTS_TOKENIZER}, prefix = '2 3 4 5 6')`,
    `CREATE TRIGGER videos_fts_insert AFTER INSERT ON videos
      BEGIN INSERT INTO videos_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description); END`,
    `CREATE TRIGGER videos_fts_delete AFTER DELETE ON videos
      BEGIN INSERT INTO videos_fts(videos_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description); END`,
    `CREATE TRIGGER videos_fts_update AFTER UPDATE OF title, description ON videos
      BEGIN
        INSERT INTO videos_fts(videos_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description);
        INSERT INTO videos_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description);
      END`,
    `INSERT INTO videos_fts(videos_fts) VALUES ('rebuild')`,
    `CREATE VIRTUAL TABLE people_fts USING fts5(name, content = 'profiles', content_rowid = 'rowid', ${FTS_TOKENIZER}, prefix = '2 3')`,
    `CREATE TRIGGER people_fts_insert AFTER INSERT ON profiles
      BEGIN INSERT INTO people_fts(rowid, name) VALUES (new.rowid, new.name); END`,
    `CREATE TRIGGER people_fts_delete AFTER DELETE ON profiles
      BEGIN INSERT INTO people_fts(people_fts, rowid, name) VALUES ('delete', old.rowid, old.name); END`,
    `CREATE TRIGGER people_fts_update AFTER UPDATE OF name ON profiles
      BEGIN
        INSERT INTO people_fts(people_fts, rowid, name) VALUES ('delete', old.rowid, old.name);
        INSERT INTO people_fts(rowid, name) VALUES (new.rowid, new.name);
      END`,
    `INSERT INTO people_fts(people_fts) VALUES ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function requireExtension(db: Kysely<unknown>, name: string): Promise<string> {
  await sql`CREATE EXTENSION IF NOT EXISTS ${sql.id(name)}`.execute(db).catch((err: unknown) => {
    throw new Error(
      `Search needs PostgreSQL's ${name} extension (in the postgresql package on Debian; docs/deploy.md): ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  const { rows } = await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
    JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ${name}`.execute(db);
  return rows[0]!.schema;
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const schema = await requireExtension(db, 'unaccent');
  const unaccent = `"${schema.replaceAll('"', '""')}".unaccent`;
  // IMMUTABLE so that an index and a generated column may use it: unaccent() itself is only STABLE
  // because its dictionary could be changed, which we never do. The dictionary is named in full so
  // that the function does not depend on the caller's search_path.
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION vidi_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT lower(${unaccent}('${unaccent.replaceAll("'", "''")}'::regdictionary, t)) $$`,
    )
    .execute(db);
  await sql`ALTER TABLE videos ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', vidi_fold(title)), 'A') || setweight(to_tsvector('simple', vidi_fold(description)), 'B')) STORED`.execute(db);
  await sql`CREATE INDEX videos_search ON videos USING gin (search_vector)`.execute(db);
  await sql`CREATE INDEX profiles_name_words ON profiles USING gin (to_tsvector('simple', vidi_fold(name)))`.execute(db);
  await sql`CREATE FUNCTION vidi_video_likes_to_tags() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE video_hashtags SET likes_count = NEW.likes_count WHERE video_id = NEW.id; RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER videos_likes_to_tags AFTER UPDATE OF likes_count ON videos FOR EACH ROW
    WHEN (NEW.likes_count IS DISTINCT FROM OLD.likes_count) EXECUTE FUNCTION vidi_video_likes_to_tags()`.execute(db);
}

type VideoRow = { id: string; title: string; description: string; created_at: number; likes_count: number };

/** Files every ready video under its tags, a thousand at a time in id order. */
async function fileReadyVideos(db: Kysely<unknown>): Promise<void> {
  const now = Date.now();
  let after = '';
  for (;;) {
    const { rows } = await sql<VideoRow>`SELECT id, title, description, created_at, likes_count FROM videos
      WHERE media_status = 'ready' AND id > ${after} ORDER BY id LIMIT 1000`.execute(db);
    for (const v of rows) {
      for (const tag of hashtagsOf(v.title, v.description)) {
        await sql`INSERT INTO hashtags (tag, videos_count, hidden, created_at) VALUES (${tag}, 1, 0, ${now})
          ON CONFLICT (tag) DO UPDATE SET videos_count = hashtags.videos_count + 1`.execute(db);
        await sql`INSERT INTO video_hashtags (tag, video_id, created_at, likes_count)
          VALUES (${tag}, ${v.id}, ${v.created_at}, ${v.likes_count})`.execute(db);
      }
    }
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) {
    await sql`DROP TRIGGER videos_likes_to_tags ON videos`.execute(db);
    await sql`DROP FUNCTION vidi_video_likes_to_tags()`.execute(db);
    await sql`DROP INDEX profiles_name_words`.execute(db);
    await sql`ALTER TABLE videos DROP COLUMN search_vector`.execute(db);
    await sql`DROP FUNCTION vidi_fold(text)`.execute(db);
  } else {
    for (const name of [
      'videos_likes_to_tags',
      'videos_fts_insert',
      'videos_fts_delete',
      'videos_fts_update',
      'people_fts_insert',
      'people_fts_delete',
      'people_fts_update',
    ]) {
      await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    }
    await sql.raw('DROP TABLE videos_fts').execute(db);
    await sql.raw('DROP TABLE people_fts').execute(db);
  }
  await db.schema.dropTable('video_hashtags').execute();
  await db.schema.dropTable('hashtags').execute();
}
