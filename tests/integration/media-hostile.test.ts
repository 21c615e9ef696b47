import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { call } from '../helpers/test-app';
import { lyingLongClip, lyingLongWebm, pictureClip, rebranded, removeHostileMedia, testsrcClip } from '../fixtures/hostile-media';
import { listen, runUpload, serverError, terminateUnfinished, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import type { ProcessVideoFn } from '#server/media/jobs/types';
import { MediaProcessingError } from '#server/media/processing/errors';
import { processVideo } from '#server/media/processing/process-video';

// Issue 26 (high, the processing half; low 1): files that lie about their length, pictures that
// cost a worker dearly, odd MP4 brands (docs/decisions/0021-hostile-media.md). Everything goes
// through the real server (tus), the real runner and the system ffmpeg.
describe('hostile media is refused with a reason, once, and nothing of it is published', () => {
  const w = useMediaJobsWorld();
  let srv: LoopbackServer;
  beforeAll(async () => {
    srv = await listen(w.t);
  });
  afterEach(() => terminateUnfinished(w.t, srv.url));
  afterAll(async () => {
    await srv?.close();
    removeHostileMedia();
  });

  async function upload(file: string, filename = 'clip.mp4'): Promise<string> {
    const meta = videoMetadata({ filename, filetype: filename.endsWith('.webm') ? 'video/webm' : 'video/mp4' });
    await runUpload({ baseUrl: srv.url, token: w.alice.token, bytes: readFileSync(file), metadata: meta });
    return meta.videoId!;
  }

  const settled = (videoId: string) =>
    until(
      'processing settled',
      async () => {
        const v = await w.video(videoId);
        return v && v.media_status !== 'processing' ? v : null;
      },
      60_000,
    );
  const jobOf = (videoId: string) => w.t.deps.db.selectFrom('media_jobs').selectAll().where('video_id', '=', videoId).executeTakeFirstOrThrow();
  /** Every file under the video's media folder: renditions, small.mp4, poster, scratch. */
  const outputs = (videoId: string) => {
    try {
      return readdirSync(w.videoFolder(videoId), { recursive: true }).map(String);
    } catch {
      return [];
    }
  };
  const feedItem = async (videoId: string) => {
    const res = await call(w.t.app, 'GET', '/api/videos?limit=50', undefined, w.alice.token);
    return (res.json.items as Array<Record<string, unknown>>).find((i) => i.id === videoId);
  };

  const lying: Array<[string, () => Promise<string>, string]> = [
    ['an MP4 whose mvhd says 4 s', () => lyingLongClip('mvhd'), 'clip.mp4'],
    ['an MP4 whose mvhd, tkhd and mdhd all say 4 s', () => lyingLongClip('all'), 'clip.mp4'],
    ['a WebM whose Segment Info and DURATION tag say 4 s', lyingLongWebm, 'clip.webm'],
  ];
  for (const [name, fixture, filename] of lying) {
    it(`600 s of 64x64 frames in ${name}: accepted at upload (the header is all it reads), refused by processing in one try`, async () => {
      const videoId = await upload(await fixture(), filename);
      expect(await w.video(videoId)).toMatchObject({ media_status: 'processing', duration_ms: 4000 });
      const started = Date.now();
      w.startRunner();
      const v = await settled(videoId);
      console.log(`${name}: refused ${Date.now() - started} ms after the runner started: ${v.media_error}`);
      expect(v).toMatchObject({ media_status: 'failed', media_key: null });
      expect(v.media_error).toMatch(/^This video is longer than 2 minutes \(.*\b(6\d\d|12\d) (seconds|a second)/);
      // Bad input is not retried.
      expect(await jobOf(videoId)).toMatchObject({ state: 'failed', attempts: 1 });
      // Nothing of the 600 s was published: no playlist, no segment, no small.mp4.
      expect(outputs(videoId)).toEqual([]);
      // The member sees why, on their own card.
      expect(await feedItem(videoId)).toMatchObject({ media_status: 'failed', media_error: v.media_error, hls_url: null, mp4_url: null });
    }, 60_000);
  }

  it('a real 120 s clip is processed and keeps its measured duration; 121 s is refused at upload and by processing past it', async () => {
    const videoId = await upload(await testsrcClip(120, 2));
    w.startRunner();
    const v = await settled(videoId);
    expect(v).toMatchObject({ media_status: 'ready', duration_ms: 120_000 });
    const rendition = readdirSync(w.media(v.media_key!)).find((n) => n.startsWith('v'))!;
    const playlist = readFileSync(join(w.media(v.media_key!), rendition, 'index.m3u8'), 'utf8');
    const played = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
    expect(played).toBeCloseTo(120, 0);

    const over = await runUpload({ baseUrl: srv.url, token: w.alice.token, bytes: readFileSync(await testsrcClip(121, 2)), metadata: videoMetadata() }).then(
      () => null,
      (e: unknown) => serverError(e),
    );
    expect(over).toMatchObject({ status: 422, body: { error: { code: 'video_too_long' } } });
    // A 121 s file that got past the upload check (an older upload, a re-processing) is refused too.
    const { videoId: past } = await w.addVideo(await testsrcClip(121, 2));
    expect((await settled(past)).media_error).toMatch(/^This video is longer than 2 minutes/);
  }, 60_000);

  const large: Array<[string, () => Promise<string>]> = [
    ['a side over 4096 pixels', () => pictureClip('4112x64', 5)],
    ['more than 4096x2304 pixels', () => pictureClip('4096x2320', 1)],
    ['240 frames a second', () => pictureClip('64x64', 240)],
  ];
  for (const [name, fixture] of large) {
    it(`a picture of ${name} is refused before anything is decoded: "This video's picture is too large"`, async () => {
      const videoId = await upload(await fixture());
      let encoding = false;
      // processVideo reports 0 % just before the encode starts: a refusal before it decoded nothing.
      const watched: ProcessVideoFn = (input) => processVideo({ ...input, onProgress: () => (encoding = true) });
      w.startRunner({ processVideo: watched });
      const v = await settled(videoId);
      expect(v.media_status).toBe('failed');
      expect(v.media_error).toMatch(/^This video's picture is too large \(/);
      expect(encoding).toBe(false);
      expect(await jobOf(videoId)).toMatchObject({ state: 'failed', attempts: 1 });
      expect(outputs(videoId)).toEqual([]);
    }, 30_000);
  }

  it('an MP4 whose brand is not a video (heic, M4A, made up) is refused at upload as not a supported video', async () => {
    for (const brand of ['heic', 'M4A ', 'zzzz']) {
      const meta = videoMetadata();
      const e = await runUpload({ baseUrl: srv.url, token: w.alice.token, bytes: readFileSync(await rebranded(brand)), metadata: meta }).then(
        () => null,
        (err: unknown) => serverError(err),
      );
      expect(e, brand).toMatchObject({ status: 422, body: { error: { code: 'unsupported_format' } } });
      expect(e!.body.error.message).toBe(`The file is not a supported video (its MP4 type "${brand}" is not a video format).`);
      expect(await w.video(meta.videoId!)).toBeUndefined();
    }
    // The same clip with its own brand is fine.
    expect(await w.video(await upload(await rebranded('isom')))).toMatchObject({ media_status: 'processing' });
  });

  it('a passing fault (storage, a timeout under load) is retried and the video is then processed', async () => {
    const videoId = await upload(await testsrcClip(2, 5));
    const fileKey = (await w.video(videoId))!.file_key;
    const faults = [new Error('storage unavailable for now'), new MediaProcessingError('processing took too long and was stopped', false)];
    const flaky: ProcessVideoFn = (input) => {
      const fault = input.source.endsWith(fileKey) ? faults.shift() : undefined;
      return fault ? Promise.reject(fault) : processVideo(input);
    };
    w.startRunner({ processVideo: flaky, retry: { maxAttempts: 3, backoffMs: [50, 50] } });
    expect(await settled(videoId)).toMatchObject({ media_status: 'ready', duration_ms: 2000 });
    expect(await jobOf(videoId)).toMatchObject({ state: 'done', attempts: 3 });
  }, 30_000);
});
