import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertTaggedVideo } from '../helpers/hashtag-videos';
import { searchAll, searchPage, searchPath, stem } from './search-calls';

// GET /api/search?type=hashtags (server/discovery/search-hashtags.ts) on both engines: tags by
// prefix in tag order, the exact tag first, unused and hidden tags left out; and what every type
// refuses: q empty or over 100 characters, an unknown type, a cursor the search did not make.

let t: TestApp;
let viewer: TestUser;
let maker: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t.deps, { name: 'Viewer' });
  maker = await createUser(t.deps, { name: 'Maker' });
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string) => call(t.app, 'GET', path, undefined, viewer.token);

describe('hashtag search', () => {
  it('lists the tags starting with the text, the exact one first, with their counts, without a leading #', async () => {
    const s = stem('trip');
    await insertTaggedVideo(t.deps, maker.id, { title: `Day one #${s} #${s}_goa #${s}2026` });
    await insertTaggedVideo(t.deps, maker.id, { description: `again #${s.toUpperCase()} and #${s}goa` });
    const expected = [
      { tag: s, videos_count: 2 },
      { tag: `${s}2026`, videos_count: 1 },
      { tag: `${s}_goa`, videos_count: 1 },
      { tag: `${s}goa`, videos_count: 1 },
    ];
    for (const q of [s, `#${s}`, s.toUpperCase(), ` #${s} `]) expect((await searchPage(t, viewer, 'hashtags', q)).items, q).toEqual(expected);
    expect((await searchPage(t, viewer, 'hashtags', `${s}g`)).items).toEqual([{ tag: `${s}goa`, videos_count: 1 }]);
    // Nothing a tag could start with: no results, not an error.
    for (const q of [`${s} goa`, '#', '"*:&', 'NEAR(']) expect((await searchPage(t, viewer, 'hashtags', q)).items, q).toEqual([]);
  });

  it('finds tags in any script and pages them without gaps or repeats', async () => {
    const s = stem('नमस्ते');
    const made: string[] = [];
    for (let i = 0; i < 45; i++) {
      const tag = `${s}${String.fromCodePoint(0x915 + (i % 30))}${i}`;
      made.push(tag);
      await insertTaggedVideo(t.deps, maker.id, { title: `#${tag}` });
    }
    const items = await searchAll(t, viewer, 'hashtags', `#${s}`);
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    expect(items.map((i) => i.tag)).toEqual([...made].sort(byBytes));
  });

  it('leaves out a hidden tag and a tag whose videos are all gone', async () => {
    const s = stem('secret');
    await insertTaggedVideo(t.deps, maker.id, { title: `#${s} #${s}ok #${s}gone` });
    await t.deps.db.updateTable('hashtags').set({ hidden: 1 }).where('tag', '=', s).execute();
    await t.deps.db.updateTable('hashtags').set({ videos_count: 0 }).where('tag', '=', `${s}gone`).execute();
    expect((await searchAll(t, viewer, 'hashtags', s)).map((i) => i.tag)).toEqual([`${s}ok`]);
  });
});

describe('what the search refuses', () => {
  it('answers 400 invalid_request for an empty or a 101-character q, a missing q, or a bad type', async () => {
    for (const type of ['people', 'videos', 'hashtags']) {
      for (const q of ['', '   ', 'x'.repeat(101), 'é'.repeat(101)]) {
        const res = await get(searchPath(type, q));
        expect([type, q.length, res.status, res.json?.error?.code], res.text).toEqual([type, q.length, 400, 'invalid_request']);
        expect(res.json.error.message).toMatch(/^q: /);
      }
      // 100 characters (after trimming), 100 letters of two UTF-16 units each too: accepted.
      for (const q of [` ${'x'.repeat(100)} `, '𝒳'.repeat(100)]) expect((await get(searchPath(type, q))).status, type).toBe(200);
    }
    for (const path of ['/api/search?type=people', '/api/search?q=cats', '/api/search?q=cats&type=tags', '/api/search?q=cats&type=PEOPLE']) {
      const res = await get(path);
      expect([path, res.status, res.json?.error?.code]).toEqual([path, 400, 'invalid_request']);
    }
  });

  it('answers 400 invalid_cursor for a cursor it did not make, or made for another type', async () => {
    const s = stem('cur');
    for (let i = 0; i < 21; i++) await insertTaggedVideo(t.deps, maker.id, { title: `#${s}${i} ${s}` });
    const cursors = {
      hashtags: (await searchPage(t, viewer, 'hashtags', s)).next_cursor!,
      videos: (await searchPage(t, viewer, 'videos', s)).next_cursor!,
    };
    expect(cursors.hashtags && cursors.videos).toBeTruthy();
    const foreign = Buffer.from('1760000000000:abc').toString('base64url');
    for (const [type, cursor] of [
      ['people', cursors.videos],
      ['videos', cursors.hashtags],
      ['hashtags', cursors.videos],
      ['videos', foreign],
      ['people', 'not a cursor!'],
      ['hashtags', 'x'.repeat(500)],
    ] as const) {
      const res = await get(searchPath(type, s, cursor));
      expect([type, res.status, res.json?.error?.code], res.text).toEqual([type, 400, 'invalid_cursor']);
    }
  });

  it('is for signed-in members only', async () => {
    expect((await call(t.app, 'GET', searchPath('people', 'cats'))).status).toBe(401);
  });
});
