import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { HSTS_VALUE } from '#server/http/security-headers';

// docs/decisions/0004-secrets-at-rest-and-server-hardening.md and docs/reliability.md: each case below failed on the code before it.

let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.deps, { isAdmin: true, name: 'First Admin' });
  otherAdmin = await createUser(t.deps, { isAdmin: true, name: 'Second Admin' });
});
afterAll(async () => {
  await t?.close();
});

const addVideo = (owner: TestUser): Promise<string> => insertVideo(t.deps, owner.id);

const push = (user: TestUser, mutations: Array<{ id: number; name: string; args: unknown }>, clientId = randomUUID()) =>
  call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations: mutations.map((m) => ({ ...m, client_time: t.deps.now() })) }, user.token);

describe('sync renames use the API name schema', () => {
  it('refuses control characters in updateProfileName, as PATCH /api/profile does', async () => {
    const member = await createUser(t.deps, { name: 'Clean Name' });
    const bad = 'Evil\u0007Name\u001b[2J';
    const api = await call(t.app, 'PATCH', '/api/profile', { name: bad }, member.token);
    expect(api.status).toBe(400);

    const res = await push(member, [{ id: 1, name: 'updateProfileName', args: { name: bad } }]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.results[0]).toMatchObject({ id: 1, status: 'rejected', error: { code: 'invalid_args' } });
    const row = await t.deps.db.selectFrom('profiles').select('name').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Clean Name');
  });

  it('still applies a clean rename (trimmed)', async () => {
    const member = await createUser(t.deps);
    const res = await push(member, [{ id: 1, name: 'updateProfileName', args: { name: '  Renamed Member  ' } }]);
    expect(res.json.results[0].status).toBe('applied');
    const row = await t.deps.db.selectFrom('profiles').select('name').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Renamed Member');
  });
});

describe('admin actions through sync are audited like their REST twins', () => {
  const auditOf = (videoId: string) =>
    t.deps.db.selectFrom('audit_log').select(['actor_id', 'action', 'target', 'details']).where('target', '=', videoId).execute();

  it("an admin's deleteVideo of a member's video writes the entry DELETE /api/admin/videos/:id writes", async () => {
    const owner = await createUser(t.deps);
    const viaRest = await addVideo(owner);
    const viaSync = await addVideo(owner);
    expect((await call(t.app, 'DELETE', `/api/admin/videos/${viaRest}`, undefined, admin.token)).status).toBe(200);
    const res = await push(admin, [{ id: 1, name: 'deleteVideo', args: { videoId: viaSync } }]);
    expect(res.json.results[0].status).toBe('applied');

    const [rest] = await auditOf(viaRest);
    const [sync] = await auditOf(viaSync);
    expect(rest).toEqual({ actor_id: admin.id, action: 'video.delete', target: viaRest, details: JSON.stringify({ owner_id: owner.id }) });
    expect(sync).toEqual({ ...rest, target: viaSync });
  });

  it('a member deleting their own video through sync is not an admin action (no entry)', async () => {
    const owner = await createUser(t.deps);
    const own = await addVideo(owner);
    const res = await push(owner, [{ id: 1, name: 'deleteVideo', args: { videoId: own } }]);
    expect(res.json.results[0].status).toBe('applied');
    expect(await auditOf(own)).toEqual([]);
  });
});

describe('admins cannot suspend or delete admins', () => {
  it('answers 403 target_is_admin and changes nothing', async () => {
    const suspend = await call(t.app, 'POST', `/api/admin/users/${otherAdmin.id}/suspend`, undefined, admin.token);
    expect(suspend.status).toBe(403);
    expect(suspend.json.error.code).toBe('target_is_admin');
    const del = await call(t.app, 'DELETE', `/api/admin/users/${otherAdmin.id}`, undefined, admin.token);
    expect(del.status).toBe(403);
    expect(del.json.error.code).toBe('target_is_admin');
    const row = await t.deps.db.selectFrom('profiles').select(['is_active']).where('id', '=', otherAdmin.id).executeTakeFirst();
    expect(row?.is_active).toBe(1);
    const audited = await t.deps.db.selectFrom('audit_log').select('id').where('target', '=', otherAdmin.id).execute();
    expect(audited).toEqual([]);
  });

  it("suspending or deleting a member closes that member's event streams (and only theirs)", async () => {
    const suspended = await createUser(t.deps);
    const deleted = await createUser(t.deps);
    const bystander = await createUser(t.deps);
    const closed: string[] = [];
    for (const u of [suspended, deleted, bystander]) t.deps.liveStreams.open({ userId: u.id, sessionId: undefined, close: () => closed.push(u.id) });

    expect((await call(t.app, 'POST', `/api/admin/users/${suspended.id}/suspend`, undefined, admin.token)).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/admin/users/${deleted.id}`, undefined, admin.token)).status).toBe(200);
    expect(closed).toEqual([suspended.id, deleted.id]);
  });

  it("a suspended member's open event stream ends at once", async () => {
    const member = await createUser(t.deps);
    const res = await t.app.request('/api/sync/events', { headers: { authorization: `Bearer ${member.token}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: ready');
    expect((await call(t.app, 'POST', `/api/admin/users/${member.id}/suspend`, undefined, admin.token)).status).toBe(200);
    // Without the fix this read waits for the next heartbeat forever (the test times out).
    for (let r = await reader.read(); !r.done; r = await reader.read()) expect(new TextDecoder().decode(r.value)).not.toContain('event: poke');
    expect(t.deps.liveStreams.count(member.id)).toBe(0);
  });
});

describe('HSTS', () => {
  it('is sent on API answers and documents when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://vidi.example' });
    try {
      const api = await https.app.request('/api/health');
      expect(api.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
      const doc = await https.app.request('/');
      expect(doc.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    } finally {
      await https.close();
    }
  });

  it('is absent when PUBLIC_URL is http', async () => {
    const api = await t.app.request('/api/health');
    expect(api.status).toBe(200);
    expect(api.headers.get('strict-transport-security')).toBeNull();
    expect((await t.app.request('/')).headers.get('strict-transport-security')).toBeNull();
  });
});
