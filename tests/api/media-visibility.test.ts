import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// docs/media.md, "What members see" and "Captions".

let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.deps, { name: 'Owner' });
  other = await createUser(t.deps, { name: 'Other' });
});
afterAll(async () => {
  await t?.close();
});

function addVideo(status: 'processing' | 'ready' | 'failed', mediaKey: string | null = null): Promise<string> {
  return insertVideo(t.deps, owner.id, {
    title: `Clip ${status}`,
    media_status: status,
    media_error: status === 'failed' ? 'the video could not be decoded' : null,
    media_key: mediaKey,
  });
}

const feedIds = async (user: TestUser) =>
  ((await call(t.app, 'GET', '/api/videos?limit=50', undefined, user.token)).json.items as Array<{ id: string }>).map((v) => v.id);
const pullIds = async (user: TestUser) =>
  ((await call(t.app, 'POST', '/api/sync/pull', { cursor: null }, user.token)).json.videos as Array<{ id: string }>).map((v) => v.id);

describe('who sees a video before it is ready', () => {
  it('shows processing and failed videos to their uploader only, in the feed and the pull', async () => {
    const processing = await addVideo('processing');
    const failed = await addVideo('failed');
    const ready = await addVideo('ready', `${owner.id}/x/job1`);

    expect(await feedIds(owner)).toEqual(expect.arrayContaining([processing, failed, ready]));
    expect(await pullIds(owner)).toEqual(expect.arrayContaining([processing, failed, ready]));
    const othersFeed = await feedIds(other);
    expect(othersFeed).toContain(ready);
    expect(othersFeed).not.toContain(processing);
    expect(othersFeed).not.toContain(failed);
    expect(await pullIds(other)).not.toContain(processing);
  });

  it('gives a ready video its HLS, small MP4 and state; a failed one its reason', async () => {
    const ready = await addVideo('ready', `${owner.id}/v/job2`);
    const failed = await addVideo('failed');
    const items = (await call(t.app, 'GET', '/api/videos?limit=50', undefined, owner.token)).json.items as Array<Record<string, unknown>>;
    expect(items.find((v) => v.id === ready)).toMatchObject({
      media_status: 'ready',
      hls_url: `/media/${owner.id}/v/job2/master.m3u8`,
      mp4_url: `/media/${owner.id}/v/job2/small.mp4`,
      captions_url: null,
    });
    expect(items.find((v) => v.id === failed)).toMatchObject({ media_status: 'failed', hls_url: null, media_error: 'the video could not be decoded' });
  });

  it("tells admins a video's processing state and why it failed", async () => {
    const admin = await createUser(t.deps, { isAdmin: true, name: 'Admin' });
    const failed = await addVideo('failed');
    const res = await call(t.app, 'GET', '/api/admin/videos?limit=100', undefined, admin.token);
    expect(res.status, res.text).toBe(200);
    expect((res.json.items as Array<Record<string, unknown>>).find((v) => v.id === failed)).toMatchObject({
      media_status: 'failed',
      media_error: 'the video could not be decoded',
    });
  });
});

describe('PUT /api/videos/:id/captions', () => {
  const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.500\nHello there\n';
  const put = (id: string, body: string, user: TestUser = owner) =>
    call(t.app, 'PUT', `/api/videos/${id}/captions`, body, user.token, { 'content-type': 'text/vtt' });

  it('stores valid WebVTT for the owner, serves it as text/vtt and puts it on the feed item', async () => {
    const id = await addVideo('ready', `${owner.id}/c/job3`);
    const res = await put(id, vtt);
    expect(res.status, res.text).toBe(200);
    const url = res.json.captions_url as string;
    expect(url).toMatch(new RegExp(`^/media/${owner.id}/${id}/captions-[0-9a-f]{32}\\.vtt$`));
    const served = await t.app.request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(await served.text()).toBe(vtt);
    const items = (await call(t.app, 'GET', '/api/videos?limit=50', undefined, other.token)).json.items as Array<Record<string, unknown>>;
    expect(items.find((v) => v.id === id)?.captions_url).toBe(url);
    // The same text again changes nothing.
    expect((await put(id, vtt)).json.captions_url).toBe(url);
  });

  it('refuses bad captions, strangers and unknown videos, and changes nothing', async () => {
    const id = await addVideo('ready', `${owner.id}/d/job4`);
    expect((await put(id, 'not captions')).status).toBe(415);
    expect((await put(id, 'WEBVTT\n\n00:02.000 --> 00:01.000\nbackwards\n')).status).toBe(415);
    expect((await put(id, `WEBVTT\n\n${'x'.repeat(101 * 1024)}`)).status).toBe(413);
    expect((await put(id, vtt, other)).status).toBe(403);
    expect((await put(randomUUID(), vtt)).status).toBe(404);
    const row = await t.deps.db.selectFrom('videos').select('captions_key').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.captions_key).toBeNull();
    expect(existsSync(join(t.deps.config.mediaDir, owner.id, id))).toBe(false);
  });
});
