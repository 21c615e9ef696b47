import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import * as clips from '#tests/fixtures/media-clips';
import { findFfmpeg } from './ffmpeg-binaries';
import { parseMediaPlaylist } from './hls-output';
import type { ProcessResult } from './process-video';
import { processVideo } from './process-video';

const run = promisify(execFile);
const binaries = findFfmpeg();
const scratch = mkdtempSync(join(tmpdir(), 'vidi-processing-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  clips.removeMediaClips();
});

interface Stream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  profile?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  color_transfer?: string;
  color_primaries?: string;
  side_data_list?: unknown[];
}

async function ffprobe(file: string, ...extra: string[]): Promise<{ streams: Stream[]; packets?: Array<{ flags: string; duration_time?: string }> }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', ...extra, file], { maxBuffer: 16 << 20 });
  return JSON.parse(stdout) as { streams: Stream[] };
}

const rate = (r = '0/1') => {
  const [n, d] = r.split('/').map(Number);
  return n! / d!;
};

let outCount = 0;
async function processClip(
  source: string,
  extra: { makePoster?: boolean; preset?: string } = {},
): Promise<{ out: string; result: ProcessResult; progress: number[] }> {
  const out = join(scratch, `out-${++outCount}`);
  rmSync(out, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(out));
  const progress: number[] = [];
  const result = await processVideo({
    binaries,
    source,
    outDir: out,
    threads: 2,
    nice: 0,
    makePoster: extra.makePoster ?? false,
    preset: extra.preset ?? 'superfast',
    onProgress: (p) => progress.push(p),
  });
  return { out, result, progress };
}

/** Average luma of an image: black is 16 in TV range. */
async function yavg(image: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `movie=${image},signalstats`,
    '-show_entries',
    'frame_tags=lavfi.signalstats.YAVG',
    '-of',
    'csv=p=0',
  ]);
  return Number(stdout.trim());
}

/** Integrated loudness (EBU R128) in LUFS. */
async function loudness(file: string): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-map', '0:a', '-af', 'ebur128', '-f', 'null', '-']);
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderr.split('Summary:').pop() ?? '')?.[1]);
}

/** What every output must be, whatever the source: checked for each rendition. */
async function checkOutput(out: string, result: ProcessResult): Promise<void> {
  const master = readFileSync(join(out, 'master.m3u8'), 'utf8');
  const durations: string[][] = [];
  for (const r of result.renditions) {
    expect(master).toContain(`BANDWIDTH=${r.bandwidth},`);
    expect(master).toMatch(new RegExp(`RESOLUTION=${r.width}x${r.height},.*CODECS="${r.codecs.replace('.', '\\.')}"\\n${r.name}/index\\.m3u8`));
    expect(r.codecs).toMatch(result.hasAudio ? /^avc1\.64[0-9a-f]{4},mp4a\.40\.2$/ : /^avc1\.64[0-9a-f]{4}$/);
    const dir = join(out, r.name);
    const playlist = parseMediaPlaylist(readFileSync(join(dir, 'index.m3u8'), 'utf8'));
    expect(playlist.initFile).toBe('init.mp4');
    expect(playlist.segments[0]?.file).toBe('seg_00001.m4s');
    playlist.segments.slice(0, -1).forEach((s) => expect(s.seconds).toBeLessThanOrEqual(2.1));
    durations.push(playlist.segments.map((s) => s.seconds.toFixed(2)));
    const init = readFileSync(join(dir, 'init.mp4'));
    for (const seg of playlist.segments) {
      // Each segment, appended to the init segment, must open on a keyframe.
      const file = join(scratch, 'segment-check.mp4');
      writeFileSync(file, Buffer.concat([init, readFileSync(join(dir, seg.file))]));
      const { streams, packets } = await ffprobe(file, '-select_streams', 'v', '-show_packets', '-read_intervals', '%+#1');
      expect(packets?.[0]?.flags, `${r.name}/${seg.file}`).toMatch(/^K/);
      const v = streams.find((s) => s.codec_type === 'video')!;
      expect([v.codec_name, v.pix_fmt, v.profile, v.width, v.height]).toEqual(['h264', 'yuv420p', 'High', r.width, r.height]);
      expect(rate(v.avg_frame_rate)).toBeLessThanOrEqual(30.01);
      expect(v.color_primaries).toBe('bt709');
      expect(v.side_data_list ?? []).toEqual([]);
    }
    const initStreams = (await ffprobe(join(dir, 'init.mp4'))).streams;
    expect(initStreams.some((s) => s.codec_type === 'audio')).toBe(result.hasAudio);
  }
  // Same segment boundaries in every rendition: the keyframes line up.
  for (const d of durations) expect(d).toEqual(durations[0]);
  const small = readFileSync(join(out, 'small.mp4'));
  expect(small.indexOf('moov', 0, 'latin1')).toBeLessThan(small.indexOf('mdat', 0, 'latin1'));
  const smallStreams = (await ffprobe(join(out, 'small.mp4'))).streams;
  const first = result.renditions[0]!;
  expect(smallStreams.find((s) => s.codec_type === 'video')).toMatchObject({ width: first.width, height: first.height, codec_name: 'h264' });
  expect(smallStreams.some((s) => s.codec_type === 'audio')).toBe(result.hasAudio);
}

const shape = (r: ProcessResult) => r.renditions.map((x) => `${x.name}:${x.width}x${x.height}`);

describe('processVideo', () => {
  it('turns an iPhone HEVC .mov (1080x1920) into four vertical renditions with audio and a poster', async () => {
    const { out, result, progress } = await processClip(await clips.iphoneHevcMov(), { makePoster: true });
    expect(shape(result)).toEqual(['v360:360x640', 'v540:540x960', 'v720:720x1280', 'v1080:1080x1920']);
    expect(result).toMatchObject({ durationMs: 2000, hasAudio: true, poster: true });
    await checkOutput(out, result);
    expect((await ffprobe(join(out, 'poster.jpg'))).streams[0]).toMatchObject({ width: 540, height: 960 });
    expect(await yavg(join(out, 'poster.jpg'))).toBeGreaterThan(32);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(3);
  }, 120_000);

  it('brings 1080p60 down to 30 fps and keeps it landscape', async () => {
    const { out, result } = await processClip(await clips.h264At60());
    expect(shape(result)).toEqual(['v360:640x360', 'v540:960x540', 'v720:1280x720', 'v1080:1920x1080']);
    expect(result.poster).toBe(false);
    await checkOutput(out, result);
    const v = (await ffprobe(join(out, 'small.mp4'))).streams.find((s) => s.codec_type === 'video')!;
    expect(rate(v.avg_frame_rate)).toBeCloseTo(30, 1);
    expect(readFileSync(join(out, 'master.m3u8'), 'utf8')).toContain('FRAME-RATE=30.000');
  }, 120_000);

  it('converts VP9 + Opus WebM to H.264 + AAC, its loudness normalised to -16 LUFS', async () => {
    const source = await clips.vp9Webm();
    const { out, result } = await processClip(source);
    expect(shape(result)).toEqual(['v360:640x360']);
    expect(result.hasAudio).toBe(true);
    await checkOutput(out, result);
    expect(await loudness(source)).toBeLessThan(-19);
    expect(await loudness(join(out, 'small.mp4'))).toBeCloseTo(-16, 0);
  });

  it('stands a clip with rotate=90 upright: stored landscape, delivered portrait', async () => {
    const source = await clips.rotated90();
    const stored = (await ffprobe(source)).streams.find((s) => s.codec_type === 'video')!;
    expect([stored.width, stored.height]).toEqual([640, 360]);
    expect(JSON.stringify(stored.side_data_list)).toMatch(/"rotation":-?90/);
    const { out, result } = await processClip(source);
    expect(shape(result)).toEqual(['v360:360x640']);
    await checkOutput(out, result);
  });

  it('tone-maps 10-bit HDR (PQ, BT.2020) to 8-bit SDR BT.709', async () => {
    const { out, result } = await processClip(await clips.hdr10Bit(), { makePoster: true });
    await checkOutput(out, result);
    const v = (await ffprobe(join(out, 'small.mp4'))).streams.find((s) => s.codec_type === 'video')!;
    expect([v.pix_fmt, v.color_transfer, v.color_primaries]).toEqual(['yuv420p', 'bt709', 'bt709']);
    expect(await yavg(join(out, 'poster.jpg'))).toBeGreaterThan(32);
  });

  it('keeps a tiny odd-sized clip without audio at its own (even) size, with no audio anywhere', async () => {
    const { out, result } = await processClip(await clips.tinyOddNoAudio());
    expect(shape(result)).toEqual(['v180:320x180']);
    expect(result.hasAudio).toBe(false);
    expect(readFileSync(join(out, 'master.m3u8'), 'utf8')).not.toContain('mp4a');
    await checkOutput(out, result);
    const v = (await ffprobe(join(out, 'small.mp4'))).streams.find((s) => s.codec_type === 'video')!;
    expect(rate(v.avg_frame_rate)).toBeCloseTo(25, 1);
  });

  it('makes a variable-frame-rate clip constant', async () => {
    const source = await clips.variableFrameRate();
    const src = (await ffprobe(source)).streams[0]!;
    expect(rate(src.avg_frame_rate)).not.toBeCloseTo(rate(src.r_frame_rate), 1);
    const { out, result } = await processClip(source);
    await checkOutput(out, result);
    const { packets } = await ffprobe(join(out, 'small.mp4'), '-select_streams', 'v', '-show_packets');
    const durations = new Set(packets!.slice(0, -1).map((p) => p.duration_time));
    expect([...durations]).toHaveLength(1);
  });

  it('skips a black opening for the poster', async () => {
    const { out, result } = await processClip(await clips.blackThenColour(), { makePoster: true });
    expect(result.poster).toBe(true);
    expect(await yavg(join(out, 'poster.jpg'))).toBeGreaterThan(32);
  });
});
