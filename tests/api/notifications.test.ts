import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../integration/sync-harness';

// The notification calls as a member's device makes them, and their bad input: subscriptions
// (refused endpoints), choices (only one's own), and notifications through pull and push.

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

// A browser's subscription keys (RFC 8291 sizes, base64url).
const KEYS = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') };
const sub = (endpoint: string, keys: unknown = KEYS) => ({ endpoint, expirationTime: null, keys });

beforeAll(async () => {
  // push.example.com stands in for a push service an operator added; it is never called (no sender runs here).
  t = await createTestApp({ PUSH_ENDPOINT_HOSTS: 'push.example.com' });
  alice = await createUser(t.deps, { name: 'Alice' });
  bob = await createUser(t.deps, { name: 'Bob' });
});
afterAll(async () => {
  await t.close();
});

const subscriptionsOf = (userId: string) => t.deps.db.selectFrom('push_subscriptions').select(['endpoint', 'p256dh']).where('user_id', '=', userId).execute();

describe('push subscriptions', () => {
  it('gives the same VAPID public key to every member and every call', async () => {
    const a = await call(t.app, 'GET', '/api/push/key', undefined, alice.token);
    const b = await call(t.app, 'GET', '/api/push/key', undefined, bob.token);
    expect(a.status).toBe(200);
    expect(a.json.public_key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(b.json).toEqual(a.json);
    // The private key is kept sealed: the stored row never holds it in the clear.
    const row = await t.deps.db.selectFrom('settings').select('value').where('key', '=', 'push_vapid').executeTakeFirstOrThrow();
    expect(JSON.parse(row.value).private_key).toMatch(/^enc:v1:/);
  });

  it('registers a device once per endpoint; the same endpoint again takes the new keys and owner', async () => {
    const endpoint = `https://push.example.com/send/${randomUUID()}`;
    const first = await call(t.app, 'POST', '/api/push/subscriptions', sub(endpoint), alice.token);
    expect(first.status).toBe(201);
    const newKeys = { ...KEYS, p256dh: Buffer.alloc(65, 9).toString('base64url') };
    const again = await call(t.app, 'POST', '/api/push/subscriptions', sub(endpoint, newKeys), bob.token);
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(await subscriptionsOf(alice.id)).toEqual([]);
    expect(await subscriptionsOf(bob.id)).toEqual([{ endpoint, p256dh: newKeys.p256dh }]);
  });

  it('refuses endpoints that are not https to a public host, and malformed keys, changing nothing', async () => {
    const member = await createUser(t.deps);
    const refused = [
      'http://push.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost:8443/x',
      'https://10.1.2.3/x',
      'https://192.168.0.4/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'ftp://push.example.com/x',
      'not a url',
      'https://push.example.com/a\nb',
      // Any host but the browsers' push services and PUSH_ENDPOINT_HOSTS, and any port but 443.
      'https://push.example.net/x',
      'https://8.8.8.8/x',
      'https://push.example.com:8443/x',
      'https://fcm.googleapis.com:444/x',
      // Read differently by the WHATWG parser (a name) and the legacy one web-push connected with (127.0.0.77).
      'https://127.0.0.77;.evil.com/x',
      'https://127.0.0.77;.push.example.com/x',
      'https://127.0.0.77%3B.push.example.com/x',
      'https://127.0.0.77%2e.push.example.com/x',
      'https://127.0.0.77${}.push.example.com/x',
      'https://127.0.0.77*.push.example.com/x',
      'https://127.0.0.77\\.push.example.com/x',
      'https://PUSH.example.com/x',
      // Special-purpose addresses and names (IANA registries).
      'https://[::127.0.0.1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[64:ff9b:1::7f00:1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[fec0::1]/x',
      'https://198.18.0.1/x',
      'https://224.0.0.1/x',
      'https://255.255.255.255/x',
      'https://localhost./x',
    ];
    for (const endpoint of refused) {
      const res = await call(t.app, 'POST', '/api/push/subscriptions', sub(endpoint), member.token);
      expect(res.status, endpoint).toBe(400);
      expect(res.json.error.code, endpoint).toBe('invalid_endpoint');
    }
    for (const keys of [{ p256dh: 'not base64!', auth: KEYS.auth }, { p256dh: KEYS.p256dh }, { ...KEYS, extra: 'x' }, 'keys']) {
      const res = await call(t.app, 'POST', '/api/push/subscriptions', sub('https://push.example.com/y', keys), member.token);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect(await subscriptionsOf(member.id)).toEqual([]);
  });

  it('keeps at most ten devices per member: the oldest goes', async () => {
    const member = await createUser(t.deps);
    for (let i = 0; i < 12; i++) {
      expect((await call(t.app, 'POST', '/api/push/subscriptions', sub(`https://push.example.com/many/${i}`), member.token)).status).toBe(201);
      t.advance(1);
    }
    const kept = (await subscriptionsOf(member.id)).map((s) => s.endpoint).sort();
    expect(kept).toHaveLength(10);
    expect(kept).not.toContain('https://push.example.com/many/0');
    expect(kept).not.toContain('https://push.example.com/many/1');
  });

  it("unsubscribes only the caller's own device: another member's endpoint stays", async () => {
    const endpoint = `https://push.example.com/send/${randomUUID()}`;
    await call(t.app, 'POST', '/api/push/subscriptions', sub(endpoint), alice.token);
    const notHers = await call(t.app, 'DELETE', '/api/push/subscriptions', { endpoint }, bob.token);
    expect(notHers.status).toBe(204);
    expect((await subscriptionsOf(alice.id)).map((s) => s.endpoint)).toContain(endpoint);
    const hers = await call(t.app, 'DELETE', '/api/push/subscriptions', { endpoint }, alice.token);
    expect(hers.status).toBe(204);
    expect((await subscriptionsOf(alice.id)).map((s) => s.endpoint)).not.toContain(endpoint);
  });

  it('answers 401 without a token', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/push/key'],
      ['POST', '/api/push/subscriptions', sub('https://push.example.com/z')],
      ['DELETE', '/api/push/subscriptions', { endpoint: 'https://push.example.com/z' }],
      ['GET', '/api/notifications/preferences'],
      ['PUT', '/api/notifications/preferences', { likes: false }],
    ] as const) {
      const res = await call(t.app, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('notification choices', () => {
  it('are all on until changed; a PUT of a subset keeps the rest', async () => {
    const member = await createUser(t.deps);
    expect((await call(t.app, 'GET', '/api/notifications/preferences', undefined, member.token)).json).toEqual({
      likes: true,
      comments: true,
      processing: true,
      prizes: true,
    });
    const put = await call(t.app, 'PUT', '/api/notifications/preferences', { likes: false }, member.token);
    expect(put.json).toEqual({ likes: false, comments: true, processing: true, prizes: true });
    await call(t.app, 'PUT', '/api/notifications/preferences', { prizes: false }, member.token);
    expect((await call(t.app, 'GET', '/api/notifications/preferences', undefined, member.token)).json).toEqual({
      likes: false,
      comments: true,
      processing: true,
      prizes: false,
    });
  });

  it("refuse another member's id, unknown keys and non-booleans, and change nothing", async () => {
    const member = await createUser(t.deps);
    for (const body of [{ user_id: alice.id, likes: false }, { likes: false, sms: true }, { likes: 'no' }, [true]]) {
      const res = await call(t.app, 'PUT', '/api/notifications/preferences', body, member.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect((await call(t.app, 'GET', '/api/notifications/preferences', undefined, alice.token)).json.likes).toBe(true);
    expect(await t.deps.db.selectFrom('notification_prefs').selectAll().where('user_id', 'in', [member.id, alice.id]).execute()).toEqual([]);
  });
});

describe('notifications through sync', () => {
  const push = (user: TestUser, mutations: unknown[]) => call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, user.token);
  const pull = (user: TestUser, cursor: string | null) => call(t.app, 'POST', '/api/sync/pull', { cursor }, user.token);

  it('a full pull and an incremental pull carry the owner’s notifications, and only the owner’s', async () => {
    const owner = await createUser(t.deps, { name: 'Owner' });
    const videoId = await insertVideo(t.deps, owner.id);
    const full = await pull(owner, null);
    expect(full.json.notifications).toEqual([]);

    await push(alice, [{ id: 1, name: 'like', args: { videoId } }]);
    await push(bob, [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'x'.repeat(300) } }]);
    const delta = await pull(owner, full.json.cursor);
    const kinds = delta.json.notifications.map((n: any) => [n.kind, n.actor_name]).sort();
    expect(kinds).toEqual([
      ['comment', 'Bob'],
      ['likes', 'Alice'],
    ]);
    const comment = delta.json.notifications.find((n: any) => n.kind === 'comment');
    expect(comment.detail.length).toBeLessThanOrEqual(100);
    expect((await pull(owner, null)).json.notifications).toHaveLength(2);
    // Alice's own pull has none of them.
    expect((await pull(alice, null)).json.notifications.filter((n: any) => n.video_id === videoId)).toEqual([]);

    // A second like while the first is unread: the same row counts two people.
    await push(bob, [{ id: 1, name: 'like', args: { videoId } }]);
    const likes = (await pull(owner, delta.json.cursor)).json.notifications;
    expect(likes).toMatchObject([{ kind: 'likes', count: 2, actor_name: 'Bob', read: false }]);
  });

  it("markNotificationsRead marks the caller's own rows; another member's id changes nothing", async () => {
    const owner = await createUser(t.deps, { name: 'Reader' });
    const videoId = await insertVideo(t.deps, owner.id);
    await push(alice, [{ id: 1, name: 'like', args: { videoId } }]);
    const [mine] = (await pull(owner, null)).json.notifications;
    const forged = await push(bob, [{ id: 1, name: 'markNotificationsRead', args: { ids: [mine.id] } }]);
    expect(forged.json.results[0].status).toBe('applied');
    expect((await pull(owner, null)).json.notifications[0].read).toBe(false);

    const read = await push(owner, [{ id: 1, name: 'markNotificationsRead', args: { ids: [mine.id] } }]);
    expect(read.json.results[0].status).toBe('applied');
    expect((await pull(owner, null)).json.notifications[0]).toMatchObject({ id: mine.id, read: true });

    // A like after it was read opens it again, counting from one.
    await push(bob, [{ id: 1, name: 'like', args: { videoId } }]);
    expect((await pull(owner, null)).json.notifications[0]).toMatchObject({ id: mine.id, read: false, count: 1, actor_name: 'Bob' });
  });

  it('an unlike changes nothing, and liking one’s own video tells nobody', async () => {
    const owner = await createUser(t.deps);
    const videoId = await insertVideo(t.deps, owner.id);
    await push(owner, [{ id: 1, name: 'like', args: { videoId } }]);
    expect((await pull(owner, null)).json.notifications).toEqual([]);
    await push(alice, [
      { id: 1, name: 'like', args: { videoId } },
      { id: 2, name: 'unlike', args: { videoId } },
    ]);
    expect((await pull(owner, null)).json.notifications).toMatchObject([{ kind: 'likes', count: 1 }]);
  });
});

describe('a VAPID pair this server cannot open', () => {
  it('answers 503 push_unavailable, not a server error, and leaves the stored pair alone', async () => {
    const other = await createTestApp();
    try {
      const member = await createUser(other.deps, { name: 'Mina' });
      // Sealed with another SECRETS_KEY (say, one lost in a restore): this server cannot open it.
      const stored = JSON.stringify({ public_key: 'B'.repeat(87), private_key: 'enc:v1:not-sealed-with-this-key' });
      await other.deps.db.insertInto('settings').values({ key: 'push_vapid', value: stored, updated_at: Date.now() }).execute();
      const res = await call(other.app, 'GET', '/api/push/key', undefined, member.token);
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe('push_unavailable');
      const row = await other.deps.db.selectFrom('settings').select('value').where('key', '=', 'push_vapid').executeTakeFirstOrThrow();
      expect(row.value).toBe(stored);
    } finally {
      await other.close();
    }
  });
});
