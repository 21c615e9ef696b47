import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutBucketCorsCommand, PutBucketPolicyCommand, type CORSConfiguration } from '@aws-sdk/client-s3';
import type { FeedItem } from '#sync/protocol/messages';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { testStorageEnv } from '../helpers/test-storage';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { listen, type LoopbackServer } from '../fixtures/tus-client';
import { launchChromium } from '../helpers/browser';
import { s3ClientFor } from '../support/s3-gateway';

/**
 * MEDIA_PUBLIC_BASE_URL against the S3 gateway (docs/deploy.md, "Media from a CDN"): the bucket gets
 * the policy and CORS rules that page gives operators, a real upload is processed by ffmpeg into
 * the bucket, and the browser's requests are made over loopback HTTP: the master playlist from the
 * app, the variant playlists, init and media segments and the poster from the gateway itself, with
 * no credentials. The engines' SQL is covered by tests/integration/media-public-base.test.ts.
 */

const env = inject('s3Env');

/** The two JSON documents of docs/deploy.md's "Media from a CDN", in order: the bucket policy, CORS. */
function deployDocuments(bucket: string, origin: string): { policy: string; cors: CORSConfiguration } {
  const page = readFileSync(join(PROJECT_ROOT, 'docs/deploy.md'), 'utf8');
  const section = page.slice(page.indexOf('## Media from a CDN'));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  return {
    policy: blocks[0]!.replaceAll('vidi-media', bucket),
    cors: JSON.parse(blocks[1]!.replaceAll('https://vidi.example.com', origin)) as CORSConfiguration,
  };
}

describe('MEDIA_PUBLIC_BASE_URL on the S3 gateway: renditions and posters straight from the bucket', () => {
  let bucket = '';
  let base = '';
  const w = useMediaJobsWorld(async () => {
    const storage = await testStorageEnv();
    bucket = storage.S3_BUCKET!;
    base = `${env.S3_ENDPOINT}/${bucket}/media`;
    return { ...storage, MEDIA_PUBLIC_BASE_URL: base };
  });
  let srv: LoopbackServer;
  let other: TestUser;
  let ready: { id: string; mediaKey: string; posterKey: string; fileKey: string };
  /** The origin of the app's pages here (the loopback listener): what the bucket's CORS names. */
  let appOrigin: string;

  beforeAll(async () => {
    expect(w.t.deps.media.kind).toBe('s3');
    srv = await listen(w.t);
    appOrigin = srv.url;
    const { policy, cors } = deployDocuments(bucket, appOrigin);
    const client = s3ClientFor(env);
    try {
      await client.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: policy }));
      await client.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: cors }));
    } finally {
      client.destroy();
    }
    other = await createUser(w.t.deps, { name: 'Other' });
    const { videoId } = await w.addVideo(w.clip);
    w.startRunner();
    const row = await until('ready', async () => {
      const v = await w.video(videoId);
      return v?.media_status === 'ready' ? v : null;
    });
    ready = { id: videoId, mediaKey: row.media_key!, posterKey: row.poster_key!, fileKey: row.file_key };
  }, 90_000);
  afterAll(async () => {
    await srv?.close();
  });

  const feed = async (u: TestUser) =>
    ((await (await fetch(`${srv.url}/api/videos?limit=50`, { headers: { authorization: `Bearer ${u.token}` } })).json()) as { items: FeedItem[] }).items;
  /** A GET as a browser on the app's page makes it: no credentials, the app's Origin. */
  const fromGateway = (url: string) => fetch(url, { headers: { origin: appOrigin } });

  it('lists the ready video with its poster at the public base, and its original and small MP4 behind /media', async () => {
    const item = (await feed(other)).find((v) => v.id === ready.id);
    expect(item).toMatchObject({
      poster_url: `${base}/${ready.posterKey}`,
      video_url: `/media/${ready.fileKey}`,
      hls_url: `/media/${ready.mediaKey}/master.m3u8`,
      mp4_url: `/media/${ready.mediaKey}/small.mp4`,
    });
    const poster = await fromGateway(item!.poster_url!);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await poster.arrayBuffer()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('plays from the gateway: the app’s master names variant playlists there, whose init and segments are the stored bytes', async () => {
    const master = await fetch(`${srv.url}/media/${ready.mediaKey}/master.m3u8`);
    expect(master.status).toBe(200);
    const variants = (await master.text()).split('\n').filter((l) => l && !l.startsWith('#'));
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      expect(variant).toMatch(new RegExp(`^${base.replaceAll('.', '\\.')}/${ready.mediaKey}/v\\d+/index\\.m3u8$`));
      const playlist = await fromGateway(variant);
      expect(playlist.status, variant).toBe(200);
      expect(playlist.headers.get('access-control-allow-origin')).toBe(appOrigin);
      const text = await playlist.text();
      const segment = text.split('\n').find((l) => l && !l.startsWith('#'))!;
      // Relative in the stored playlist: they resolve at the gateway, next to the playlist.
      for (const uri of ['init.mp4', segment]) {
        expect(text).toContain(uri);
        const url = new URL(uri, variant).href;
        expect(url.startsWith(`${base}/`), url).toBe(true);
        const res = await fromGateway(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe(appOrigin);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const key = url.slice(base.length + 1);
        const stored = Buffer.from(await new Response(await w.t.deps.media.read(key)).arrayBuffer());
        expect(Buffer.from(await res.arrayBuffer()).equals(stored), key).toBe(true);
        expect(stored.length).toBeGreaterThan(0);
      }
    }
  });

  it('keeps the original, the offline copy and the master private at the gateway; the app still serves them', async () => {
    for (const key of [ready.fileKey, `${ready.mediaKey}/small.mp4`, `${ready.mediaKey}/master.m3u8`]) {
      expect((await fromGateway(`${base}/${key}`)).status, key).toBe(403);
      const viaApp = await fetch(`${srv.url}/media/${key}`);
      expect(viaApp.status, key).toBe(200);
      expect((await viaApp.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // The tus area at the bucket's root is not public either.
    expect((await fromGateway(`${env.S3_ENDPOINT}/${bucket}/`)).status).toBe(403);
  });

  it('keeps a processing video’s poster behind /media (and the video from others)', async () => {
    const key = `${w.alice.id}/poster-${crypto.randomUUID()}-${'a'.repeat(32)}.jpg`;
    await w.t.deps.media.putOnce(key, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
    const id = await insertVideo(w.t.deps, w.alice.id, { media_status: 'processing', poster_key: key });
    expect((await feed(w.alice)).find((v) => v.id === id)?.poster_url).toBe(`/media/${key}`);
    expect((await feed(other)).some((v) => v.id === id)).toBe(false);
  });

  it('lets the pages fetch from the gateway’s origin (connect-src, media-src, img-src)', async () => {
    const csp = (await fetch(`${srv.url}/media/${ready.mediaKey}/master.m3u8`)).headers.get('content-security-policy') ?? '';
    const origin = new URL(base).origin;
    for (const name of ['connect-src', 'media-src', 'img-src']) {
      expect(
        csp.split(';').find((d) => d.trim().startsWith(`${name} `)),
        name,
      ).toContain(` ${origin}`);
    }
  });

  it('lets a browser on the app’s page fetch a variant and a segment from the gateway and show the poster (its CSP and the bucket’s CORS)', async () => {
    const item = (await feed(other)).find((v) => v.id === ready.id)!;
    const variant = (await (await fetch(`${srv.url}/media/${ready.mediaKey}/master.m3u8`)).text()).split('\n').find((l) => l.startsWith('http'))!;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // Any document of the app carries its policy; a 404 of /media is the smallest.
      await page.goto(`${srv.url}/media/nope/x.jpg`);
      const seen = await page.evaluate(
        async ({ variant, poster, elsewhere }) => {
          const violations: string[] = [];
          document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
          const playlist = await (await fetch(variant)).text();
          const segment = playlist.split('\n').find((l) => l && !l.startsWith('#'))!;
          const bytes = (await (await fetch(new URL(segment, variant))).arrayBuffer()).byteLength;
          const img = new Image();
          img.src = poster;
          await img.decode();
          // The policy is in force: an origin it does not name is refused.
          const refused = await fetch(elsewhere).then(
            () => false,
            () => true,
          );
          await new Promise((ok) => setTimeout(ok, 50));
          return { head: playlist.slice(0, 7), bytes, width: img.naturalWidth, refused, violations };
        },
        { variant, poster: item.poster_url!, elsewhere: `${srv.url.replace('127.0.0.1', 'localhost')}/api/health` },
      );
      expect(seen).toMatchObject({ head: '#EXTM3U', refused: true });
      expect(seen.bytes).toBeGreaterThan(0);
      expect(seen.width).toBeGreaterThan(0);
      expect(seen.violations).toHaveLength(1);
      expect(seen.violations[0]).toMatch(/^connect-src http:\/\/localhost:\d+/);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
