import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { signUpVerified } from '../helpers/auth-flow';
import { insertVideo, useSyncServer } from './sync-harness';
import { MAX_STREAMS_PER_MEMBER } from '#server/realtime/live-streams';
import { processPull } from '#server/sync/pull';
import { sharedDeltasFor } from '#server/realtime/shared-deltas';
import { PokeMessageSchema, type PokeDelta } from '#sync/protocol/messages';
import { readSseEvents } from '../helpers/sse';

// The bounds on live-update streams (docs/sync.md, "Live"): at most five per member, closed by the
// server when a session or account ends, and a poke's shared rows read once, not per connection.

const s = useSyncServer();

interface OpenStream {
  /** Every `event:` name and data seen so far, in order. */
  events: Array<{ event: string; data: string }>;
  /** Settles when the server ends the response. */
  ended: Promise<'ended'>;
  /** Resolves with the next event named `name` (waiting for it if needed). */
  nextEvent(name: string): Promise<{ event: string; data: string }>;
  close(): void;
}

/** An events stream over real HTTP, read in the background. */
async function openStream(user: TestUser, clientId?: string): Promise<OpenStream> {
  const ctl = new AbortController();
  const res = await fetch(`${s.http.url}/api/sync/events${clientId ? `?client_id=${clientId}` : ''}`, {
    headers: { authorization: `Bearer ${user.token}` },
    signal: ctl.signal,
  });
  expect(res.status).toBe(200);
  const events: OpenStream['events'] = [];
  const waiters: Array<() => void> = [];
  let seen = 0;
  const ended = readSseEvents(
    res.body!,
    (e) => events.push(e),
    () => {
      for (const w of waiters.splice(0)) w();
    },
  );
  const nextEvent = async (name: string) => {
    for (;;) {
      const i = events.findIndex((e, n) => n >= seen && e.event === name);
      if (i >= 0) {
        seen = i + 1;
        return events[i]!;
      }
      const more = new Promise<void>((ok) => waiters.push(ok));
      if ((await Promise.race([more.then(() => 'more' as const), ended])) === 'ended' && !events.slice(seen).some((e) => e.event === name)) {
        throw new Error(`stream ended before a ${name} event`);
      }
    }
  };
  return { events, ended, nextEvent, close: () => ctl.abort() };
}

const stillOpen = (st: OpenStream) => Promise.race([st.ended, new Promise<'open'>((ok) => setTimeout(() => ok('open'), 300))]);

describe('event streams per member', () => {
  it(`keeps at most ${MAX_STREAMS_PER_MEMBER} open: a sixth closes the oldest, and the others stay`, async () => {
    const member = await createUser(s.t.deps, { name: 'Many Tabs' });
    const streams: OpenStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_MEMBER; i++) {
      const st = await openStream(member);
      await st.nextEvent('ready');
      streams.push(st);
    }
    expect(s.t.deps.liveStreams.count(member.id)).toBe(MAX_STREAMS_PER_MEMBER);
    const sixth = await openStream(member);
    await sixth.nextEvent('ready');
    // The oldest response ends (the server closed it), not by a reset.
    expect(await streams[0]!.ended).toBe('ended');
    // It was told why, so its client waits before reconnecting instead of replacing another tab.
    expect(streams[0]!.events.at(-1)?.event).toBe('replaced');
    expect(await Promise.all([...streams.slice(1), sixth].map(stillOpen))).toEqual(Array(MAX_STREAMS_PER_MEMBER).fill('open'));
    expect(s.t.deps.liveStreams.count(member.id)).toBe(MAX_STREAMS_PER_MEMBER);
    // The five still open get the next poke.
    await insertVideo(s.t.deps, s.bob.id);
    await Promise.all([...streams.slice(1), sixth].map((st) => st.nextEvent('poke')));
    for (const st of [...streams, sixth]) st.close();
  });

  it("ends every stream of a member an admin suspends, and not another member's", async () => {
    const member = await createUser(s.t.deps, { name: 'Suspended Soon' });
    const admin = await createUser(s.t.deps, { name: 'Admin', isAdmin: true });
    const other = await openStream(s.alice);
    const mine = await Promise.all([openStream(member), openStream(member), openStream(member)]);
    await Promise.all([other, ...mine].map((st) => st.nextEvent('ready')));
    const res = await fetch(`${s.http.url}/api/admin/users/${member.id}/suspend`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    expect(await Promise.all(mine.map((st) => st.ended))).toEqual(['ended', 'ended', 'ended']);
    expect(mine.flatMap((st) => st.events).some((e) => e.event === 'replaced')).toBe(false);
    expect(s.t.deps.liveStreams.count(member.id)).toBe(0);
    expect(await stillOpen(other)).toBe('open');
    other.close();
  });

  it('ends the streams of a session that logs out, and only those', async () => {
    const email = `streams-${randomUUID().slice(0, 8)}@example.test`;
    const password = 'a long enough passphrase';
    const member = await signUpVerified(s.t, { name: 'Two Devices', email, password });
    const signIn = async () => {
      const res = await fetch(`${s.http.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { access_token: string; refresh_token: string };
      return { user: { ...member, token: body.access_token }, refresh: body.refresh_token };
    };
    const phone = await signIn();
    const laptop = await signIn();
    const phoneStreams = await Promise.all([openStream(phone.user), openStream(phone.user)]);
    const laptopStream = await openStream(laptop.user);
    await Promise.all([...phoneStreams, laptopStream].map((st) => st.nextEvent('ready')));

    const out = await fetch(`${s.http.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: phone.refresh }),
    });
    expect(out.status).toBe(204);
    expect(await Promise.all(phoneStreams.map((st) => st.ended))).toEqual(['ended', 'ended']);
    expect(await stillOpen(laptopStream)).toBe('open');
    expect(s.t.deps.liveStreams.count(member.id)).toBe(1);
    laptopStream.close();
  });

  it('unregisters a stream its client closed', async () => {
    const member = await createUser(s.t.deps, { name: 'Closer' });
    const st = await openStream(member);
    await st.nextEvent('ready');
    expect(s.t.deps.liveStreams.count(member.id)).toBe(1);
    st.close();
    await expect.poll(() => s.t.deps.liveStreams.count(member.id)).toBe(0);
  });
});

describe('poke deltas share what is the same for everyone', () => {
  it('reads the shared part of one change once for many streams, and each gets the delta its own pull would give', async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const members = await Promise.all(Array.from({ length: 6 }, (_, i) => createUser(s.t.deps, { name: `Watcher ${i}` })));
    // Some like the video first, so liked_by_me differs between the streams.
    for (const m of members.slice(0, 3))
      expect(
        (await call(s.t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name: 'like', args: { videoId } }] }, m.token)).status,
      ).toBe(200);
    const clientIds = members.map(() => randomUUID());
    const streams = await Promise.all(members.map((m, i) => openStream(m, clientIds[i])));
    await Promise.all(streams.map((st) => st.nextEvent('ready')));
    const shared = sharedDeltasFor(s.t.deps);
    const readsBefore = shared.reads;

    // One change by one of the streams' own members (its own connection confirms the mutation).
    const actor = members[4]!;
    expect(
      (await call(s.t.app, 'POST', '/api/sync/push', { client_id: clientIds[4], mutations: [{ id: 1, name: 'like', args: { videoId } }] }, actor.token)).status,
    ).toBe(200);
    const deltas = await Promise.all(streams.map(async (st) => PokeMessageSchema.parse(JSON.parse((await st.nextEvent('poke')).data)).delta!));
    expect(shared.reads - readsBefore).toBe(1);

    for (const [i, m] of members.entries()) {
      const delta = deltas[i]!;
      expect(delta).toBeDefined();
      const pull = await processPull(s.t.deps, { ...m, isAdmin: false }, { client_id: clientIds[i], cursor: delta.from, open_videos: [], load_comments: [] });
      const strip = (d: PokeDelta | typeof pull) => ({
        ...d,
        from: undefined,
        client_id: undefined,
        leaderboards: { ...(d.leaderboards as object), as_of: 0 },
      });
      expect(strip(delta)).toEqual(strip(pull));
      expect(delta.videos.find((v) => v.id === videoId)?.liked_by_me).toBe(i < 3 || i === 4);
      expect(delta.last_mutation_id).toBe(i === 4 ? 1 : 0);
    }
    for (const st of streams) st.close();
  });
});
