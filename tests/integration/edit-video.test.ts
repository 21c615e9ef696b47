import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { freshTag, hashtagRow, insertTaggedVideo } from '../helpers/hashtag-videos';
import { insertVideo } from '../helpers/videos';

// editVideo through the real push (docs/sync.md, "Mutations"), on SQLite and PostgreSQL: the owner's
// edit rewrites the row, files the video under its new tags with exact counts, and moves the search
// index; a replay changes nothing more; anyone else's video and bad text are refused.

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MEDIA_WORKER: 'off' });
  [owner, stranger] = await Promise.all([createUser(t.deps, { name: 'Owner' }), createUser(t.deps, { name: 'Stranger' })]);
});
afterAll(async () => {
  await t?.close();
});

type Result = { id: number; status: 'applied' | 'duplicate' | 'rejected'; error?: { code: string; message: string } };

async function push(user: TestUser, clientId: string, id: number, args: Record<string, unknown>): Promise<Result> {
  const mutations = [{ id, name: 'editVideo', args, client_time: Date.now() }];
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token);
  expect(res.status, res.text).toBe(200);
  return (res.json.results as Result[])[0]!;
}

const edit = (user: TestUser, args: Record<string, unknown>) => push(user, randomUUID(), 1, args);

const videoTexts = (id: string) => t.deps.db.selectFrom('videos').select(['title', 'description']).where('id', '=', id).executeTakeFirstOrThrow();
/** The video's filed tags, which its keys of the "top" order (db/migrations/0021_hashtags_top.ts) match, at its likes_count. */
const tagsOf = async (id: string) => {
  const filed = (await t.deps.db.selectFrom('video_hashtags').select('tag').where('video_id', '=', id).orderBy('tag').execute()).map((r) => r.tag);
  const top = await t.deps.db
    .selectFrom('video_hashtags_top as h')
    .innerJoin('videos as v', 'v.id', 'h.video_id')
    .select('h.tag')
    .where('h.video_id', '=', id)
    .whereRef('h.likes_count', '=', 'v.likes_count')
    .orderBy('h.tag')
    .execute();
  expect(top.map((r) => r.tag)).toEqual(filed);
  return filed;
};
const countOf = async (tag: string) => (await hashtagRow(t.deps.db, tag))?.videos_count;
const videoChanges = async (id: string) =>
  Number(
    (
      await t.deps.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('entity', '=', 'video')
        .where('entity_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The videos whose title or description holds `word`, by the engine's own index (FTS5 on SQLite, search_vector on PostgreSQL). */
async function foundBy(word: string): Promise<string[]> {
  if (t.deps.engine.dialect === 'sqlite') {
    const r = await sql<{ id: string }>`SELECT v.id FROM videos_fts JOIN videos v ON v.rowid = videos_fts.rowid WHERE videos_fts MATCH ${word}`.execute(
      t.deps.db,
    );
    return r.rows.map((x) => x.id);
  }
  const r = await sql<{ id: string }>`SELECT id FROM videos WHERE search_vector @@ to_tsquery('simple', vidi_fold(${word}))`.execute(t.deps.db);
  return r.rows.map((x) => x.id);
}

describe('editVideo', () => {
  it('rewrites the texts and files the video under its new tags with exact counts; the replay is a duplicate', async () => {
    const [keep, drop, add, alone] = [freshTag('keep'), freshTag('drop'), freshTag('add'), freshTag('alone')];
    const videoId = await insertTaggedVideo(t.deps, owner.id, { title: `Walk #${keep} #${alone}`, description: `with #${drop}` });
    const other = await insertTaggedVideo(t.deps, stranger.id, { title: `Also #${keep}`, description: `#${drop}` });
    expect([await countOf(keep), await countOf(drop), await countOf(alone)]).toEqual([2, 2, 1]);
    const changesBefore = await videoChanges(videoId);

    const clientId = randomUUID();
    const args = { videoId, title: `  Walk again #${keep}  `, description: `now #${add}\n` };
    expect(await push(owner, clientId, 1, args)).toEqual({ id: 1, status: 'applied' });
    expect(await videoTexts(videoId)).toEqual({ title: `Walk again #${keep}`, description: `now #${add}` });
    expect(await tagsOf(videoId)).toEqual([add, keep].sort());
    expect(await tagsOf(other)).toEqual([drop, keep].sort());
    // Kept: still two videos; removed here: one left; added: one; the tag whose only video lost it: none.
    expect([await countOf(keep), await countOf(drop), await countOf(add), await countOf(alone)]).toEqual([2, 1, 1, 0]);
    // Pulls and pokes see it as a change of the video.
    expect(await videoChanges(videoId)).toBeGreaterThan(changesBefore);

    const changesAfter = await videoChanges(videoId);
    expect(await push(owner, clientId, 1, args)).toEqual({ id: 1, status: 'duplicate' });
    expect([await countOf(keep), await countOf(drop), await countOf(add), await countOf(alone)]).toEqual([2, 1, 1, 0]);
    expect(await tagsOf(videoId)).toEqual([add, keep].sort());
    expect(await videoChanges(videoId)).toBe(changesAfter);
  });

  it('the same texts sent again from another device file nothing twice', async () => {
    const tag = freshTag('same');
    const videoId = await insertTaggedVideo(t.deps, owner.id, { title: 'Plain' });
    const args = { videoId, title: `Now #${tag}`, description: `and #${tag} again` };
    expect(await edit(owner, args)).toMatchObject({ status: 'applied' });
    expect(await edit(owner, args)).toMatchObject({ status: 'applied' });
    expect(await tagsOf(videoId)).toEqual([tag]);
    expect(await countOf(tag)).toBe(1);
  });

  it("refuses another member's video and an unknown one alike, and changes nothing", async () => {
    const tag = freshTag('mine');
    const videoId = await insertTaggedVideo(t.deps, owner.id, { title: `Mine #${tag}` });
    const theirs = await edit(stranger, { videoId, title: 'Taken over', description: '' });
    const unknown = await edit(stranger, { videoId: randomUUID(), title: 'Taken over', description: '' });
    expect(theirs).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
    // The same answer: the refusal does not tell whether the id exists.
    expect(unknown.error).toEqual(theirs.error);
    expect(await videoTexts(videoId)).toEqual({ title: `Mine #${tag}`, description: '' });
    expect(await tagsOf(videoId)).toEqual([tag]);
    expect(await countOf(tag)).toBe(1);
  });

  it('refuses a bad title or description with the rule in the upload form’s words, and changes nothing', async () => {
    const tag = freshTag('kept');
    const videoId = await insertTaggedVideo(t.deps, owner.id, { title: `Fine #${tag}` });
    const refusals: Array<[Record<string, string>, string]> = [
      [{ title: '   ', description: '#other' }, 'Please provide a title for the video.'],
      [{ title: 'x'.repeat(121), description: '' }, 'The title may be at most 120 characters.'],
      [{ title: 'evil\u202Egpj.exe', description: '' }, 'The title must not contain invisible formatting characters.'],
      [{ title: 'tab\there', description: '' }, 'The title must not contain control characters.'],
      [{ title: 'Fine', description: 'y'.repeat(2001) }, 'The description may be at most 2000 characters.'],
    ];
    for (const [texts, message] of refusals) {
      expect(await edit(owner, { videoId, ...texts })).toEqual({ id: 1, status: 'rejected', error: { code: 'invalid', message } });
    }
    // Lines and tabs are allowed in a description, as at upload.
    expect(await edit(owner, { videoId, title: `Fine #${tag}`, description: 'two\nlines\tand a tab' })).toMatchObject({ status: 'applied' });
    expect(await videoTexts(videoId)).toEqual({ title: `Fine #${tag}`, description: 'two\nlines\tand a tab' });
    expect(await countOf(tag)).toBe(1);
  });

  it('moves the search index with the texts: the new word finds the video, the old one no longer does', async () => {
    const [oldWord, newWord] = [`zebra${randomUUID().slice(0, 6)}`, `quokka${randomUUID().slice(0, 6)}`];
    const videoId = await insertVideo(t.deps, owner.id, { title: `A ${oldWord} runs`, media_status: 'ready' });
    expect(await foundBy(oldWord)).toEqual([videoId]);
    expect(await foundBy(newWord)).toEqual([]);
    expect(await edit(owner, { videoId, title: 'A walk', description: `with a ${newWord}` })).toMatchObject({ status: 'applied' });
    expect(await foundBy(newWord)).toEqual([videoId]);
    expect(await foundBy(oldWord)).toEqual([]);
  });

  it('tells a member newly mentioned in a shown video, once', async () => {
    const named = await createUser(t.deps, { name: 'Named' });
    const { handle } = await t.deps.db.selectFrom('profiles').select('handle').where('id', '=', named.id).executeTakeFirstOrThrow();
    const videoId = await insertTaggedVideo(t.deps, owner.id, { title: 'Hello' });
    const mentions = () =>
      t.deps.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', named.id)
        .where('kind', '=', 'mention')
        .where('video_id', '=', videoId)
        .execute();
    expect(await edit(owner, { videoId, title: `Hello @${handle}`, description: '' })).toMatchObject({ status: 'applied' });
    expect(await mentions()).toHaveLength(1);
    expect(await edit(owner, { videoId, title: 'Hello', description: '' })).toMatchObject({ status: 'applied' });
    expect(await edit(owner, { videoId, title: 'Hello', description: `again @${handle}` })).toMatchObject({ status: 'applied' });
    expect(await mentions()).toHaveLength(1);
  });
});
