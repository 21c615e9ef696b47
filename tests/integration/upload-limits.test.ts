import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { createUploadRaw, encodeMetadata, listen, runUpload, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import { mp4Faststart } from '../fixtures/videos';
import { MAX_UPLOADS_IN_PROGRESS, UPLOAD_WINDOW_MS } from '#server/uploads/quotas';
import { limitsSetting } from '#server/settings/definitions';
import { writeSetting } from '#server/settings/store';
import { tusObjects } from './upload-storage';

// Per-member upload limits and the free-space floor (docs/uploads.md, "Limits"), over real HTTP.

const MIB = 1024 * 1024;

/** A tus creation with a plain POST: status, JSON body and Retry-After. */
async function create(baseUrl: string, token: string, size: number, metadata = videoMetadata()) {
  const res = await fetch(`${baseUrl}/files/`, {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': encodeMetadata(metadata), Authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, retryAfter: res.headers.get('retry-after'), location: res.headers.get('location') };
}

const terminate = (baseUrl: string, token: string, path: string) =>
  fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });

describe('per-member upload limits', () => {
  let t: TestApp;
  let srv: LoopbackServer;

  beforeAll(async () => {
    // No free-space floor here: this machine's disk is not what these tests are about.
    t = await createTestApp({ UPLOAD_MIN_FREE_MIB: '0' });
    srv = await listen(t);
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });

  const rows = async (userId: string) => t.deps.db.selectFrom('uploads').select(['id', 'status']).where('user_id', '=', userId).execute();
  /** A token from the app's own (possibly advanced) clock. */
  const tokenOf = async (u: TestUser) => (await t.deps.tokens.issue(u.id)).token;

  it(`refuses a fourth upload in progress with 429 too_many_uploads; a terminated or finished one frees its slot`, async () => {
    const member = await createUser(t.deps, { name: 'Three Slots' });
    const paths = [];
    for (let i = 0; i < MAX_UPLOADS_IN_PROGRESS; i++) paths.push(await createUploadRaw(srv.url, member.token, MIB));
    const fourth = await create(srv.url, member.token, MIB);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.code).toBe('too_many_uploads');
    expect(fourth.body.error.message).toMatch(/3 uploads in progress/);
    expect((await rows(member.id)).length).toBe(MAX_UPLOADS_IN_PROGRESS);

    expect((await terminate(srv.url, member.token, paths[0]!)).status).toBe(204);
    const afterCancel = await create(srv.url, member.token, MIB);
    expect(afterCancel.status).toBe(201);
    expect((await create(srv.url, member.token, MIB)).status).toBe(429);

    // A finished upload is no longer in progress either: two unfinished, one that runs to the end,
    // then one more fits.
    for (const p of paths.slice(1)) await terminate(srv.url, member.token, p);
    expect((await create(srv.url, member.token, MIB)).status).toBe(201);
    const bytes = readFileSync(await mp4Faststart());
    await runUpload({ baseUrl: srv.url, token: member.token, bytes, metadata: videoMetadata() });
    expect((await create(srv.url, member.token, MIB)).status).toBe(201);
    expect((await create(srv.url, member.token, MIB)).status).toBe(429);
  });

  it('lets only 3 of 8 concurrent creations through', async () => {
    const member = await createUser(t.deps, { name: 'Racer' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(srv.url, member.token, MIB)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_UPLOADS_IN_PROGRESS);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.error.code)).toEqual(Array(8 - MAX_UPLOADS_IN_PROGRESS).fill('too_many_uploads'));
    expect((await rows(member.id)).length).toBe(MAX_UPLOADS_IN_PROGRESS);
  });

  it('frees the slots of uploads left unfinished for 24 hours, even before the cleanup ran', async () => {
    const member = await createUser(t.deps, { name: 'Forgetful' });
    for (let i = 0; i < MAX_UPLOADS_IN_PROGRESS; i++) await createUploadRaw(srv.url, member.token, MIB);
    expect((await create(srv.url, member.token, MIB)).status).toBe(429);
    t.advance(UPLOAD_WINDOW_MS + 1000);
    expect((await create(srv.url, await tokenOf(member), MIB)).status).toBe(201);
  });

  it('lets a new creation for the same video replace the unfinished one (a lost creation answer holds no slot)', async () => {
    const member = await createUser(t.deps, { name: 'Bad Network' });
    const token = await tokenOf(member);
    const meta = videoMetadata();
    // Three creations of one video whose answers were lost, as tus-js-client retries them.
    const paths = [];
    for (let i = 0; i < 3; i++) paths.push(await createUploadRaw(srv.url, token, MIB, meta));
    expect((await rows(member.id)).map((r) => r.status).sort()).toEqual(['cancelled', 'cancelled', 'uploading']);
    // Two more videos still fit; the replaced upload answers like an expired one.
    expect((await create(srv.url, token, MIB)).status).toBe(201);
    expect((await create(srv.url, token, MIB)).status).toBe(201);
    expect((await create(srv.url, token, MIB)).status).toBe(429);
    const head = await fetch(`${srv.url}${paths[0]}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });
    expect(head.status).toBe(410);
  });

  describe('daily volume (limits.upload_daily_mib)', () => {
    beforeAll(async () => {
      await writeSetting(t.deps.db, limitsSetting, { viewer_daily_points_cap: 200, upload_daily_mib: 3 }, t.deps.now());
    });
    afterAll(async () => {
      await t.deps.db.deleteFrom('settings').where('key', '=', limitsSetting.key).execute();
    });

    it('counts the declared length of every upload of the last 24 hours, and refuses the one that would pass it', async () => {
      const member = await createUser(t.deps, { name: 'Heavy' });
      const token = await tokenOf(member);
      const first = await createUploadRaw(srv.url, token, 2 * MIB);
      // Cancelled: its bytes were received all the same, it still counts.
      await terminate(srv.url, token, first);
      expect((await create(srv.url, token, MIB)).status).toBe(201);
      const over = await create(srv.url, token, 1);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('upload_quota_exceeded');
      expect(over.body.error.message).toMatch(/daily upload limit of 3 MiB/);
      // The first upload leaves the window in just under 24 hours.
      expect(Number(over.retryAfter)).toBeGreaterThan(23 * 3600);
      expect(Number(over.retryAfter)).toBeLessThanOrEqual(24 * 3600);
      expect((await rows(member.id)).length).toBe(2);

      const tooBig = await create(srv.url, token, 4 * MIB);
      expect(tooBig.status).toBe(429);
      expect(tooBig.body.error.message).toMatch(/larger than the daily upload limit/);

      t.advance(UPLOAD_WINDOW_MS);
      expect((await create(srv.url, await tokenOf(member), 2 * MIB)).status).toBe(201);
    });

    it('keeps the earlier upload of a video when its new creation is refused (a refusal changes nothing)', async () => {
      const member = await createUser(t.deps, { name: 'Kept' });
      const token = await tokenOf(member);
      const meta = videoMetadata();
      const first = await createUploadRaw(srv.url, token, 2 * MIB, meta);
      expect((await create(srv.url, token, 2 * MIB, meta)).status).toBe(429);
      expect((await rows(member.id)).map((r) => r.status)).toEqual(['uploading']);
      const head = await fetch(`${srv.url}${first}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });
      expect(head.status).toBe(200);
    });

    it('does not let concurrent creations share out more than the volume', async () => {
      const member = await createUser(t.deps, { name: 'Parallel' });
      const token = await tokenOf(member);
      // Three slots, 3 MiB: of three concurrent 2 MiB creations only one fits.
      const answers = await Promise.all(Array.from({ length: 3 }, () => create(srv.url, token, 2 * MIB)));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 429, 429]);
      expect(answers.filter((a) => a.status === 429).every((a) => a.body.error.code === 'upload_quota_exceeded')).toBe(true);
    });
  });
});

describe('the free-space floor', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let member: TestUser;

  beforeAll(async () => {
    // A floor far above any real disk's free space (1 PiB).
    t = await createTestApp({ UPLOAD_MIN_FREE_MIB: String(1024 * 1024 * 1024) });
    srv = await listen(t);
    member = await createUser(t.deps, { name: 'Disk Full' });
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });

  it('refuses new uploads with 507 insufficient_storage, creating nothing', async () => {
    const refused = await create(srv.url, member.token, MIB);
    expect(refused.status).toBe(507);
    expect(refused.body.error.code).toBe('insufficient_storage');
    expect(refused.body.error.message).toMatch(/storage space/);
    expect(refused.retryAfter).toBeTruthy();
    expect(await t.deps.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    expect(await tusObjects(t.deps)).toEqual([]);
  });
});
