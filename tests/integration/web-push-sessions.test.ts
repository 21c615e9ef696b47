import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushSender, type PushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { login, signUpVerified } from '../helpers/auth-flow';
import { readMailSink } from '../helpers/mail-sink';
import { commentAs, startPushService, type PushService, type TestSubscription } from '../helpers/push-service';
import { insertVideo } from './sync-harness';

// A push subscription belongs to the session that registered it and ends with it: whoever once held
// a session must not keep receiving the member's comments and prizes. Through the real HTTP API:
// sign-up, login, the device's registration, then the four ways sessions end; the local push service
// (tests/helpers/push-service.ts) shows what still arrives.

let t: TestApp;
let svc: PushService;
let sender: PushSender;
let fan: TestUser;
const PASSWORD = 'first-password-1';

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
  svc = await startPushService();
  sender = startPushSender(t.deps, { tickMs: 3_600_000 });
  fan = await createUser(t.deps, { name: 'Fan' });
});
afterAll(async () => {
  await sender?.stop();
  await svc?.stop();
  await t?.close();
});

interface Session {
  access: string;
  refresh: string;
  device: TestSubscription;
}

/** A member signed up for real, signed in on two devices, each registered for pushes with its own session. */
async function memberOnTwoDevices(): Promise<{ id: string; email: string; a: Session; b: Session }> {
  const email = `m-${randomUUID().slice(0, 8)}@example.test`;
  const { id } = await signUpVerified(t, { email, password: PASSWORD });
  const sessions: Session[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await login(t, email, PASSWORD);
    expect(res.status).toBe(200);
    const { access_token: access, refresh_token: refresh } = res.json as { access_token: string; refresh_token: string };
    const key = (await call(t.app, 'GET', '/api/push/key', undefined, access)).json.public_key;
    const device = await svc.subscribe(key);
    const reg = await call(t.app, 'POST', '/api/push/subscriptions', { endpoint: device.endpoint, expirationTime: null, keys: device.keys }, access);
    expect(reg.status).toBe(201);
    sessions.push({ access, refresh, device });
  }
  return { id, email, a: sessions[0]!, b: sessions[1]! };
}

/** The fan comments on a new video of the member; the sender sends. Answers what each device got. */
async function commentAndCount(ownerId: string, devices: TestSubscription[]): Promise<number[]> {
  const videoId = await insertVideo(t.deps, ownerId);
  await commentAs(t, fan, videoId, 'Nice one');
  await sender.runOnce();
  return Promise.all(devices.map(async (d) => (await svc.messages(d)).length));
}

const endpointsOf = async (userId: string) =>
  (await t.deps.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', userId).execute()).map((r) => r.endpoint);

describe('a push subscription ends with its session', () => {
  it('logout ends this session’s device only', async () => {
    const m = await memberOnTwoDevices();
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([1, 1]);
    expect((await call(t.app, 'POST', '/api/auth/logout', { refresh_token: m.a.refresh })).status).toBe(204);
    expect(await endpointsOf(m.id)).toEqual([m.b.device.endpoint]);
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([1, 2]);
  });

  it('sign out everywhere ends every device', async () => {
    const m = await memberOnTwoDevices();
    expect((await call(t.app, 'POST', '/api/auth/logout-all', undefined, m.b.access)).status).toBe(204);
    expect(await endpointsOf(m.id)).toEqual([]);
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([0, 0]);
  });

  it('a password change ends the devices of every other session; the one that changed it keeps its own', async () => {
    const m = await memberOnTwoDevices();
    const res = await call(t.app, 'POST', '/api/auth/password/change', { current_password: PASSWORD, new_password: 'second-password-2' }, m.a.access);
    expect(res.status).toBe(200);
    expect(await endpointsOf(m.id)).toEqual([m.a.device.endpoint]);
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([1, 0]);
  });

  it('a password reset ends every device', async () => {
    const m = await memberOnTwoDevices();
    expect((await call(t.app, 'POST', '/api/auth/password/forgot', { email: m.email })).status).toBe(202);
    let link: string | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      link = readMailSink(t.dataDir)
        .find((mail) => mail.to.includes(m.email) && mail.subject === 'Reset your Vidi password')
        ?.links.find((l) => l.includes('/reset-password?token='));
      if (!link) await sleep(50);
    }
    const token = new URL(link ?? 'http://x/').searchParams.get('token');
    const res = await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'third-password-3' });
    expect(res.status).toBe(200);
    expect(await endpointsOf(m.id)).toEqual([]);
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([0, 0]);
  });

  it('a device whose session ended some other way (its refresh token reused after the grace window) is sent nothing', async () => {
    const m = await memberOnTwoDevices();
    // Rotating, then presenting the spent token again later, is taken for theft: the family is revoked.
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: m.a.refresh })).status).toBe(200);
    t.advance(60_000);
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: m.a.refresh })).status).toBe(401);
    expect(await commentAndCount(m.id, [m.a.device, m.b.device])).toEqual([0, 1]);
  });
});
