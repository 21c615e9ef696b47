import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorFromResponse } from '#client/lib/http/api-error';
import { SEARCH_DEBOUNCE_MS, SearchRunner, type SearchPage, type SearchState } from './search-runner';

// A real HTTP server on loopback stands in for GET /api/search: it answers `slow…` queries late, so
// the tests see what a late answer does, and records every request and whether its client gave up.

interface Seen {
  q: string;
  cursor: string | null;
  aborted: boolean;
}

let server: Server;
let base = '';
const seen: Seen[] = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const q = url.searchParams.get('q') ?? '';
  const cursor = url.searchParams.get('cursor');
  const entry: Seen = { q, cursor, aborted: false };
  seen.push(entry);
  res.on('close', () => {
    if (!res.writableEnded) entry.aborted = true;
  });
  if (q === 'bad') {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'invalid_request', message: 'No.' } }));
    return;
  }
  const page: SearchPage<{ id: string }> =
    cursor === null
      ? { items: [{ id: `${q}-1` }, { id: `${q}-2` }], next_cursor: 'c2' }
      : // The next page repeats the last row of the first (a row that moved between pages).
        { items: [{ id: `${q}-2` }, { id: `${q}-3` }], next_cursor: null };
  setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page)), q.startsWith('slow') ? 400 : 0);
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function fetchPage(path: string, signal: AbortSignal): Promise<SearchPage<unknown>> {
  const res = await fetch(`${base}${path}`, { signal });
  if (!res.ok) throw await apiErrorFromResponse(res);
  return (await res.json()) as SearchPage<unknown>;
}

/** A runner whose every state is recorded, and a way to wait for the one the test expects. */
function runner(delayMs = 60) {
  const states: SearchState[] = [];
  const r = new SearchRunner(fetchPage, (s) => states.push(s), delayMs);
  const settled = async (want: (s: SearchState) => boolean) => {
    await expect.poll(() => states.at(-1) && want(states.at(-1)!), { timeout: 5_000, interval: 10 }).toBe(true);
    return states.at(-1)!;
  };
  return { r, states, settled };
}

const ids = (s: SearchState) => (s.items as Array<{ id: string }>).map((i) => i.id);

describe('search as the member types (SearchRunner)', () => {
  it('waits for typing to pause about 250 ms, then sends one request for what was typed last', async () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(250);
    seen.length = 0;
    const { r, settled } = runner(SEARCH_DEBOUNCE_MS);
    const started = Date.now();
    for (const q of ['b', 'be', 'ben']) r.search(q, 'people');
    const done = await settled((s) => !s.loading && s.query === 'ben');
    expect(Date.now() - started).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS);
    expect(seen.map((s) => s.q)).toEqual(['ben']);
    expect(ids(done)).toEqual(['ben-1', 'ben-2']);
  });

  it('aborts the request of an older query, whose late answer never replaces the newer results', async () => {
    seen.length = 0;
    const { r, states, settled } = runner();
    r.search('slow', 'videos');
    await expect.poll(() => seen.length, { timeout: 5_000, interval: 10 }).toBe(1);
    r.search('fast', 'videos');
    await settled((s) => !s.loading && s.query === 'fast');
    // Past the moment the slow answer would have come.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(seen[0]).toMatchObject({ q: 'slow', aborted: true });
    expect(states.some((s) => ids(s).includes('slow-1'))).toBe(false);
    expect(ids(states.at(-1)!)).toEqual(['fast-1', 'fast-2']);
  });

  it('pages with next_cursor, showing a row once, and stops when there is no next page', async () => {
    seen.length = 0;
    const { r, settled } = runner();
    r.search('cats', 'hashtags');
    await settled((s) => !s.loading && s.items.length === 2);
    r.loadMore();
    const done = await settled((s) => !s.loading && s.items.length === 3);
    expect(ids(done)).toEqual(['cats-1', 'cats-2', 'cats-3']);
    expect(done.next).toBeNull();
    r.loadMore();
    expect(seen.map((s) => s.cursor)).toEqual([null, 'c2']);
  });

  it('sends a handle without its @ and a tag without its #, as the results name them', async () => {
    seen.length = 0;
    const { r, settled } = runner();
    r.search(' @ben ', 'people');
    await settled((s) => !s.loading && s.query === 'ben');
    r.search('#cats', 'hashtags');
    await settled((s) => !s.loading && s.query === 'cats');
    r.search('#cats', 'videos');
    await settled((s) => !s.loading && s.query === '#cats');
    expect(seen.map((s) => s.q)).toEqual(['ben', 'cats', '#cats']);
  });

  it('clears at once for an empty query, sends nothing, and cancels the search still waiting', async () => {
    seen.length = 0;
    const { r, states } = runner();
    r.search('waiting', 'people');
    r.search('   ', 'people');
    expect(states.at(-1)).toMatchObject({ query: '', items: [], loading: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([]);
  });

  it("says why a search failed: the server's refusal, or no answer (status 0)", async () => {
    const { r, settled } = runner();
    r.search('bad', 'people');
    expect((await settled((s) => !s.loading && s.error !== null)).error).toMatchObject({ status: 400, code: 'invalid_request' });
    const last: SearchState[] = [];
    // Port 1 on loopback: nothing listens, so the request fails as it does offline.
    const offline = new SearchRunner(
      (path, signal) => fetch(`http://127.0.0.1:1${path}`, { signal }).then((x) => x.json() as Promise<SearchPage<unknown>>),
      (s) => last.push(s),
      0,
    );
    offline.search('ben', 'people');
    await expect.poll(() => last.at(-1)?.error?.status, { timeout: 5_000 }).toBe(0);
    expect(last.at(-1)?.items).toEqual([]);
  });
});
