import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#tests/support/postgres-cluster';
import { startPushSender, type SenderOptions } from '#server/notifications/sender';
import type { LookupFunction } from '#server/notifications/special-addresses';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { commentAs, startPushService, type PushService } from '../helpers/push-service';
import { insertVideo } from './sync-harness';

// The sender connects to the host and port the endpoint check approved and nowhere else. Rows that
// the check at subscribe time would refuse are written straight into the table (as rows from before
// it), with endpoints the WHATWG parser and the legacy one (which web-push connected with) read
// differently: a listener on 127.0.0.77, where the legacy parser points, records every connection.
// Names are resolved only by the tests' own resolver, which answers with loopback addresses.

const TRAP_HOST = '127.0.0.77';

interface Trap {
  port: number;
  connections: string[];
  close(): Promise<void>;
}

/** A listener that records who connected (and hangs up): nothing may ever reach it. */
async function startTrap(port: number): Promise<Trap> {
  const connections: string[] = [];
  const server: Server = createServer((socket) => {
    connections.push(`${socket.localAddress}:${socket.localPort}`);
    socket.destroy();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, TRAP_HOST, ok);
  });
  return { port, connections, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** A browser's subscription keys: a P-256 public key and an auth secret, so the message can be encrypted and sent. */
const KEYS = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };

async function insertSubscription(t: TestApp, userId: string, endpoint: string, keys = KEYS): Promise<void> {
  const now = t.deps.now();
  await t.deps.db
    .insertInto('push_subscriptions')
    .values({ id: randomUUID(), user_id: userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: now, updated_at: now })
    .execute();
}

/** A fan comments on a new video of `owner`; a sender then sends what is due. Answers how many notifications it claimed. */
async function commentAndSend(t: TestApp, owner: TestUser, options: SenderOptions = {}): Promise<number> {
  const fan = await createUser(t.deps, { name: 'Fan' });
  const videoId = await insertVideo(t.deps, owner.id);
  const sender = startPushSender(t.deps, { tickMs: 3_600_000, ...options });
  try {
    await commentAs(t, fan, videoId, 'hello');
    return await sender.runOnce();
  } finally {
    await sender.stop();
  }
}

describe('in production (the browsers’ push services, plus push.vidi.test)', () => {
  let t: TestApp;
  let traps: Trap[];

  beforeAll(async () => {
    t = await createTestApp({ PUSH_ENDPOINT_HOSTS: 'push.vidi.test' });
    // 443: where `https://127.0.0.77;.evil.com/x` led web-push (the legacy parser's host, the default port).
    traps = [await startTrap(443), await startTrap(await freePort())];
  });
  afterAll(async () => {
    for (const trap of traps ?? []) await trap.close();
    await t?.close();
  });

  it('never connects where the legacy parser would read an endpoint: 127.0.0.77 sees no connection', async () => {
    const owner = await createUser(t.deps, { name: 'Owner' });
    const port = traps[1]!.port;
    for (const endpoint of [
      'https://127.0.0.77;.evil.com/x',
      'https://127.0.0.77;.push.vidi.test/x',
      'https://127.0.0.77%3B.push.vidi.test/x',
      `https://127.0.0.77:${port};.push.vidi.test/x`,
      `https://127.0.0.77:${port}%3B.push.vidi.test/x`,
      `https://127.0.0.77:${port}/x`,
    ])
      await insertSubscription(t, owner.id, endpoint);
    expect(await commentAndSend(t, owner)).toBe(1);
    expect(traps.map((trap) => trap.connections)).toEqual([[], []]);
  });

  it('checks the address a permitted name resolves to when it connects: a name answering 127.0.0.77 gets nothing', async () => {
    const owner = await createUser(t.deps, { name: 'Rebound' });
    await insertSubscription(t, owner.id, 'https://push.vidi.test/x');
    const asked: string[] = [];
    const resolve: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: TRAP_HOST, family: 4 }]);
      else callback(null, TRAP_HOST, 4);
    };
    expect(await commentAndSend(t, owner, { resolve })).toBe(1);
    expect(asked).toContain('push.vidi.test');
    expect(traps.map((trap) => trap.connections)).toEqual([[], []]);
    const kept = await t.deps.db.selectFrom('notifications').select('kind').where('user_id', '=', owner.id).execute();
    expect(kept).toEqual([{ kind: 'comment' }]);
  });
});

describe('with a local push service (PUSH_ALLOW_INSECURE_ENDPOINTS)', () => {
  let t: TestApp;
  let svc: PushService;
  let trap: Trap;

  beforeAll(async () => {
    t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
    svc = await startPushService();
    trap = await startTrap(await freePort());
  });
  afterAll(async () => {
    await trap?.close();
    await svc?.stop();
    await t?.close();
  });

  it('delivers to the approved host and port, and connects to no other', async () => {
    const owner = await createUser(t.deps, { name: 'Owner' });
    const key = (await call(t.app, 'GET', '/api/push/key', undefined, owner.token)).json.public_key;
    const device = await svc.subscribe(key);
    expect((await call(t.app, 'POST', '/api/push/subscriptions', { endpoint: device.endpoint, keys: device.keys }, owner.token)).status).toBe(201);
    for (const endpoint of [`https://127.0.0.77:${trap.port};.evil.com/x`, `https://127.0.0.77:${trap.port}%3B.evil.com/x`])
      await insertSubscription(t, owner.id, endpoint, device.keys);
    expect(await commentAndSend(t, owner)).toBe(1);
    expect(await svc.messages(device)).toMatchObject([{ title: 'Fan commented on your video', body: 'hello' }]);
    expect(trap.connections).toEqual([]);
  });
});
