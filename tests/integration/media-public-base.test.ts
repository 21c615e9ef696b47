import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FeedItem } from '#sync/protocol/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// MEDIA_PUBLIC_BASE_URL on both engines (docs/deploy.md, "Media from a CDN"): which URLs point at the
// public base, in the feed (its JSON built by SQL), the pull (its items built in JS) and the master
// playlist. Nothing is fetched from the base here (tests/s3/media-public-base.test.ts does, from the
// S3 gateway); it is loopback text only.

const BASE = 'http://127.0.0.1:9/cdn/media';
const MASTER =
  '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=360x640\nv360/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=720x1280\nv720/index.m3u8\n';
const LEVEL = '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2.0,\nseg_00001.m4s\n#EXT-X-ENDLIST\n';

async function world(env: Record<string, string>) {
  const t = await createTestApp(env);
  const owner = await createUser(t.deps, { name: 'Owner' });
  const other = await createUser(t.deps, { name: 'Other' });
  const file = (key: string, text: string) => {
    const path = join(t.deps.config.mediaDir, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  /** A processed video: master, one level playlist, its poster in the job folder. */
  const addVideo = async (status: 'processing' | 'ready' | 'failed') => {
    const id = randomUUID();
    const mediaKey = `${owner.id}/${id}/job1`;
    file(`${mediaKey}/master.m3u8`, MASTER);
    file(`${mediaKey}/v360/index.m3u8`, LEVEL);
    const posterKey = `${mediaKey}/poster.jpg`;
    await insertVideo(t.deps, owner.id, { id, media_status: status, media_key: status === 'ready' ? mediaKey : null, poster_key: posterKey });
    return { id, mediaKey, posterKey };
  };
  const feed = async (u: TestUser) => (await call(t.app, 'GET', '/api/videos?limit=50', undefined, u.token)).json.items as FeedItem[];
  const pull = async (u: TestUser) => (await call(t.app, 'POST', '/api/sync/pull', { cursor: null }, u.token)).json.videos as FeedItem[];
  return { t, owner, other, file, addVideo, feed, pull };
}

describe('with MEDIA_PUBLIC_BASE_URL', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world({ MEDIA_PUBLIC_BASE_URL: `${BASE}/` });
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('gives a ready video’s poster at the public base in the feed and the pull; its original, small MP4 and master stay on /media', async () => {
    const ready = await w.addVideo('ready');
    for (const items of [await w.feed(w.other), await w.feed(w.owner), await w.pull(w.other), await w.pull(w.owner)]) {
      const item = items.find((v) => v.id === ready.id);
      expect(item).toMatchObject({
        poster_url: `${BASE}/${ready.posterKey}`,
        hls_url: `/media/${ready.mediaKey}/master.m3u8`,
        mp4_url: `/media/${ready.mediaKey}/small.mp4`,
      });
      expect(item!.video_url).toMatch(/^\/media\//);
    }
  });

  it('keeps the poster of a video still processing (or failed) behind /media, for its owner', async () => {
    for (const status of ['processing', 'failed'] as const) {
      const v = await w.addVideo(status);
      for (const items of [await w.feed(w.owner), await w.pull(w.owner)]) {
        expect(items.find((i) => i.id === v.id)?.poster_url, status).toBe(`/media/${v.posterKey}`);
      }
    }
  });

  it('serves a ready video’s master playlist from the app with its variants at the public base, for a few minutes', async () => {
    const ready = await w.addVideo('ready');
    const res = await w.t.app.request(`/media/${ready.mediaKey}/master.m3u8`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = await res.text();
    expect(body).toBe(MASTER.replace('v360/', `${BASE}/${ready.mediaKey}/v360/`).replace('v720/', `${BASE}/${ready.mediaKey}/v720/`));
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    const head = await w.t.app.request(`/media/${ready.mediaKey}/master.m3u8`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(Buffer.byteLength(body))]);
    // A level playlist still read through /media keeps its relative URIs (they resolve under /media).
    expect(await (await w.t.app.request(`/media/${ready.mediaKey}/v360/index.m3u8`)).text()).toBe(LEVEL);
  });

  it('serves the master of a video that is not ready (or of another job) as stored, relative to /media', async () => {
    const processing = await w.addVideo('processing');
    const ready = await w.addVideo('ready');
    w.file(`${ready.mediaKey.replace(/job1$/, 'job0')}/master.m3u8`, MASTER);
    for (const key of [`${processing.mediaKey}/master.m3u8`, `${ready.mediaKey.replace(/job1$/, 'job0')}/master.m3u8`]) {
      const res = await w.t.app.request(`/media/${key}`);
      expect(res.status, key).toBe(200);
      expect(await res.text()).toBe(MASTER);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('lets documents load media from the public base’s origin (connect-src, media-src, img-src), nothing more', async () => {
    const csp = (await w.t.app.request('/media/nope/x.mp4')).headers.get('content-security-policy')!;
    const directive = (name: string) => csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
    for (const name of ['connect-src', 'media-src', 'img-src']) expect(directive(name), name).toContain(' http://127.0.0.1:9');
    expect(csp).not.toContain('http://127.0.0.1:9/cdn');
    for (const name of ['script-src', 'frame-src', 'default-src']) expect(directive(name), name).not.toContain('127.0.0.1');
  });
});

describe('without MEDIA_PUBLIC_BASE_URL', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world({});
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('keeps every media URL and the master playlist on /media, and the policy same-origin', async () => {
    const ready = await w.addVideo('ready');
    for (const items of [await w.feed(w.other), await w.pull(w.other)]) {
      expect(items.find((v) => v.id === ready.id)?.poster_url).toBe(`/media/${ready.posterKey}`);
    }
    const res = await w.t.app.request(`/media/${ready.mediaKey}/master.m3u8`);
    expect(await res.text()).toBe(MASTER);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).not.toContain('127.0.0.1');
  });
});
