import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/test-app';
import type { TestUser } from '../helpers/users';
import { HashtagResultsSchema, PeopleResultsSchema, VideoResultsSchema, type SearchType } from '#sync/rest-api/discovery';

// GET /api/search as a member, for the tests/api/search-*.test.ts files.

const SCHEMAS = { people: PeopleResultsSchema, videos: VideoResultsSchema, hashtags: HashtagResultsSchema } as const;

export const searchPath = (type: string, q: string, cursor?: string) =>
  `/api/search?type=${type}&q=${encodeURIComponent(q)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

/** One page; anything but a 200 of the type's exact shape fails the test. */
export async function searchPage(
  t: TestApp,
  user: TestUser,
  type: SearchType,
  q: string,
  cursor?: string,
): Promise<{ items: any[]; next_cursor: string | null }> {
  const res = await call(t.app, 'GET', searchPath(type, q, cursor), undefined, user.token);
  expect(res.status, `${type} ${q}: ${res.text}`).toBe(200);
  expect(SCHEMAS[type].strict().safeParse(res.json).success, res.text).toBe(true);
  expect(res.json.items.length).toBeLessThanOrEqual(20);
  return res.json;
}

/** Every result, following next_cursor; fails on a key seen twice. */
export async function searchAll(t: TestApp, user: TestUser, type: SearchType, q: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 60; pages++) {
    const page = await searchPage(t, user, type, q, cursor);
    items.push(...page.items);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  const keys = items.map((i) => i.id ?? i.tag);
  expect(new Set(keys).size, 'no result twice').toBe(keys.length);
  return items;
}

const stems = new Set<string>();

/**
 * `s` and six letters a-f no other test of the run uses: a word, a handle or a tag of its own. Drawn
 * again on a repeat: 25 draws of one prefix met a repeat about once in 150 runs (a duplicate handle).
 */
export function stem(s: string): string {
  for (;;) {
    const letters = randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 6);
    const drawn = `${s}${letters}`;
    if (letters.length === 6 && !stems.has(drawn)) {
      stems.add(drawn);
      return drawn;
    }
  }
}
