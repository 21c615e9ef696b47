import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { realServer, type RealServer } from './hardening-server';
import { http } from './auth-http-client';
import { insertVideo } from '../helpers/videos';
import { encodeMetadata, videoMetadata } from '../fixtures/tus-client';

// Issue 26 (Hardening II), the low items on the server's side, against the real server process over
// loopback HTTP. Each case failed on the code before its fix.

type Member = Awaited<ReturnType<RealServer['member']>>;

let s: RealServer;

beforeAll(async () => {
  // One trusted proxy: the tests present IPv6 clients in X-Forwarded-For, as nginx would.
  s = await realServer({ TRUST_PROXY_HOPS: '1' });
});
afterAll(async () => {
  await s?.stop();
});

const push = async (user: Member, mutations: Array<{ name: string; args: unknown }>) => {
  const now = Date.now();
  const res = await s.json(
    'POST',
    '/api/sync/push',
    { client_id: randomUUID(), mutations: mutations.map((m, i) => ({ id: i + 1, ...m, client_time: now })) },
    user.token,
  );
  expect(res.status).toBe(200);
  return res.json.results as Array<{ id: number; status: string; error?: { code: string; message: string } }>;
};

const creatorPoints = async (userId: string) =>
  (await s.db().selectFrom('scores').select('creator_points').where('user_id', '=', userId).executeTakeFirst())?.creator_points ?? 0;

const counters = (videoId: string) =>
  s.db().selectFrom('videos').select(['likes_count', 'comments_count', 'shares_count']).where('id', '=', videoId).executeTakeFirstOrThrow();

const interactions = (videoId: string) => [
  { name: 'like', args: { videoId } },
  { name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'First!' } },
  { name: 'recordShare', args: { shareId: randomUUID(), videoId } },
  { name: 'recordView', args: { videoId, watchedMs: 5000 } },
];

describe('interactions only with videos others can see (Low 3)', () => {
  it("refuses likes, comments, shares and views of another member's processing or failed video, and the creator earns nothing", async () => {
    const owner = await s.member();
    const fan = await s.member();
    for (const status of ['processing', 'failed'] as const) {
      const videoId = await insertVideo({ db: s.db() }, owner.id, { media_status: status, media_error: status === 'failed' ? 'undecodable' : null });
      const results = await push(fan, interactions(videoId));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      for (const r of results) {
        expect(r.error?.code).toBe('not_ready');
        expect(r.error?.message).toMatch(/^This video (is still being processed|could not be processed and cannot be watched)\.$/);
      }
      expect(await counters(videoId)).toEqual({ likes_count: 0, comments_count: 0, shares_count: 0 });
      expect(await s.db().selectFrom('comments').select('id').where('video_id', '=', videoId).execute()).toEqual([]);
      expect(await s.db().selectFrom('views').select('user_id').where('video_id', '=', videoId).execute()).toEqual([]);
    }
    expect(await creatorPoints(owner.id)).toBe(0);
    expect(await s.db().selectFrom('notifications').select('id').where('user_id', '=', owner.id).execute()).toEqual([]);

    // The same pushes on a ready video apply and score: the refusals above are about the status.
    const ready = await insertVideo({ db: s.db() }, owner.id);
    expect((await push(fan, interactions(ready).slice(0, 3))).map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    expect(await creatorPoints(owner.id)).toBe(2);
  });

  it('lets members act on their own video while it processes (the feed shows it to them; nothing scores), and take back a like', async () => {
    const owner = await s.member();
    const own = await insertVideo({ db: s.db() }, owner.id, { media_status: 'processing' });
    expect((await push(owner, interactions(own))).map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect(await counters(own)).toEqual({ likes_count: 1, comments_count: 1, shares_count: 1 });
    expect(await creatorPoints(owner.id)).toBe(0);
    expect((await push(owner, [{ name: 'unlike', args: { videoId: own } }]))[0]?.status).toBe('applied');
  });
});

describe('per-IP limits key IPv6 by its /64 (Low 4)', () => {
  const resend = (from: string, i: number) =>
    http(s.server, 'POST', '/api/auth/resend-verification', { body: { email: `nobody-${randomUUID()}-${i}@example.test` }, forwardedFor: from });

  it('counts every address of one /64 as one client, and another /64 apart', async () => {
    // resendsPerIp: 20 an hour (server/security/auth-limits.ts), each from a different address of 2001:db8:1:2::/64.
    for (let i = 1; i <= 20; i++) expect((await resend(`2001:db8:1:2::${i.toString(16)}`, i)).status).toBe(202);
    const again = await resend('2001:db8:1:2:dead:beef:cafe:1', 21);
    expect(again.status).toBe(429);
    expect(again.json.error.code).toBe('rate_limited');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect((await resend('2001:db8:1:3::1', 22)).status).toBe(202);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    for (let i = 1; i <= 20; i++) expect((await resend(i % 2 ? '198.51.100.77' : '::ffff:198.51.100.77', i)).status).toBe(202);
    expect((await resend('::ffff:c633:644d', 21)).status).toBe(429);
    expect((await resend('198.51.100.78', 22)).status).toBe(202);
  });
});

describe('text shown to others refuses control and hidden formatting characters (Low 5)', () => {
  const RLO = '\u202E';

  it('refuses a name with a bidi override at sign-up, on the profile and through sync, and changes nothing', async () => {
    const email = `spoof-${randomUUID()}@example.test`;
    const signup = await s.json('POST', '/api/auth/signup', { name: `Admin${RLO}nimdA`, email, password: 'a-good-password' });
    expect(signup.status).toBe(400);
    expect(JSON.stringify(signup.json)).toContain('invisible formatting characters');
    expect(await s.db().selectFrom('profiles').select('id').where('email', '=', email).execute()).toEqual([]);

    const member = await s.member();
    const before = (await s.db().selectFrom('profiles').select('name').where('id', '=', member.id).executeTakeFirstOrThrow()).name;
    for (const name of [`Admin${RLO}nimdA`, 'Zero\u200bWidth', 'Isolate\u2067x\u2069', 'Soft\u00adhyphen', 'B\ufeffom']) {
      expect((await s.json('PATCH', '/api/profile', { name }, member.token)).status, JSON.stringify(name)).toBe(400);
    }
    const [rename] = await push(member, [{ name: 'updateProfileName', args: { name: `Admin${RLO}nimdA` } }]);
    expect(rename).toMatchObject({ status: 'rejected', error: { code: 'invalid_args' } });
    expect((await s.db().selectFrom('profiles').select('name').where('id', '=', member.id).executeTakeFirstOrThrow()).name).toBe(before);

    // A family emoji is made with zero-width joiners: it stays a valid name.
    const family = await s.json('PATCH', '/api/profile', { name: 'The Lees 👨\u200d👩\u200d👧' }, member.token);
    expect(family.status).toBe(200);
    expect(family.json.name).toBe('The Lees 👨\u200d👩\u200d👧');
  });

  it('refuses a comment with a bidi override or a control character and keeps a multi-line one', async () => {
    const owner = await s.member();
    const fan = await s.member();
    const videoId = await insertVideo({ db: s.db() }, owner.id);
    const results = await push(fan, [
      { name: 'addComment', args: { commentId: randomUUID(), videoId, content: `nice ${RLO}gpj.exe` } },
      { name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'bell\u0007' } },
      { name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'two\nlines 👨\u200d👩\u200d👧' } },
    ]);
    expect(results.map((r) => [r.status, r.error?.code])).toEqual([
      ['rejected', 'invalid_args'],
      ['rejected', 'invalid_args'],
      ['applied', undefined],
    ]);
    expect(results[0]?.error?.message).toBe('content: A comment must not contain invisible formatting characters.');
    expect(results[1]?.error?.message).toBe('content: A comment must not contain control characters.');
    const stored = await s.db().selectFrom('comments').select('content').where('video_id', '=', videoId).execute();
    expect(stored).toEqual([{ content: 'two\nlines 👨\u200d👩\u200d👧' }]);
  });

  it('refuses an upload whose title or description has a control or hidden formatting character, before any byte is sent', async () => {
    const member = await s.member();
    const tus = { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${member.token}` };
    const uploads = async () => (await s.db().selectFrom('uploads').select('id').where('user_id', '=', member.id).execute()).length;
    const cases: Array<[Record<string, string>, string]> = [
      [{ title: 'Bell\u0007' }, 'title: The title must not contain control characters.'],
      [{ title: 'Tab\there' }, 'title: The title must not contain control characters.'],
      [{ title: `Cat ${RLO}4pm.exe` }, 'title: The title must not contain invisible formatting characters.'],
      [{ description: 'Esc\u001b[2J' }, 'description: The description must not contain control characters.'],
      [{ description: 'Hidden\u2066text\u2069' }, 'description: The description must not contain invisible formatting characters.'],
    ];
    const createUpload = (over: Record<string, string>) =>
      fetch(`${s.server.url}/files/`, {
        method: 'POST',
        headers: { ...tus, 'Upload-Length': '1000', 'Upload-Metadata': encodeMetadata(videoMetadata(over)) },
      });
    for (const [over, message] of cases) {
      const res = await createUpload(over);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'invalid_metadata', message } });
    }
    expect(await uploads()).toBe(0);
    // A description of several lines is still fine.
    const ok = await createUpload({ title: 'Fine 🏳️\u200d🌈', description: 'Line one\nline two' });
    expect(ok.status).toBe(201);
    expect(await uploads()).toBe(1);
    await fetch(new URL(ok.headers.get('location') ?? '', s.server.url), { method: 'DELETE', headers: tus });
  });
});
