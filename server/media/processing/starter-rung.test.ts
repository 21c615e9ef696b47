import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from './ffmpeg-binaries';
import { parseMediaPlaylist } from './hls-output';
import { processVideo } from './process-video';

const run = promisify(execFile);
const binaries = findFfmpeg();
const scratch = mkdtempSync(join(tmpdir(), 'vidi-starter-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Presentation times of the video keyframes of one rendition, from its playlist. */
async function keyframes(playlist: string): Promise<string[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', playlist]);
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l.split(',')[1]?.startsWith('K'))
    .map((l) => Number(l.split(',')[0]).toFixed(3));
}

describe('the starter rung (docs/decisions/0027-cold-start.md)', () => {
  it('lists a 240p rung at ~0.36 Mbit/s in the master, its first segment 1 s, its keyframes a superset of the ladder', async () => {
    // 7 s of 640x360 with audio: long enough for the 1 s, 1 s, 2 s, … pattern to show.
    const source = join(scratch, 'source.mp4');
    await run(binaries.ffmpeg, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', source],
    ]);
    const out = join(scratch, 'out');
    mkdirSync(out);
    const result = await processVideo({ binaries, source, outDir: out, threads: 2, nice: 0, makePoster: false, preset: 'superfast' });

    // The ladder itself is what it was; the starter is beside it.
    expect(result.renditions.map((r) => `${r.name}:${r.width}x${r.height}`)).toEqual(['v360:640x360']);
    expect(result.starter).toMatchObject({ name: 'v240', width: 426, height: 240 });
    expect(result.starter!.codecs).toMatch(/^avc1\.64[0-9a-f]{4},mp4a\.40\.2$/);
    const master = readFileSync(join(out, 'master.m3u8'), 'utf8');
    // hls.js orders levels by bandwidth: the starter is first, below the 360p rung.
    expect(master.indexOf('v240/index.m3u8')).toBeGreaterThan(0);
    expect(master.indexOf('v240/index.m3u8')).toBeLessThan(master.indexOf('v360/index.m3u8'));
    expect(master).toContain(`BANDWIDTH=${result.starter!.bandwidth},`);
    expect(result.starter!.bandwidth).toBeLessThan(result.renditions[0]!.bandwidth);

    const starter = parseMediaPlaylist(readFileSync(join(out, 'v240/index.m3u8'), 'utf8'));
    const ladder = parseMediaPlaylist(readFileSync(join(out, 'v360/index.m3u8'), 'utf8'));
    expect(starter.segments.map((s) => s.seconds.toFixed(1))).toEqual(['1.0', '1.0', '2.0', '2.0', '1.0']);
    expect(ladder.segments.map((s) => s.seconds.toFixed(1))).toEqual(['2.0', '2.0', '2.0', '1.0']);
    // Every keyframe (so every segment border) of the ladder is one of the starter's, at the same instant.
    const [ks, kl] = [await keyframes(join(out, 'v240/index.m3u8')), await keyframes(join(out, 'v360/index.m3u8'))];
    expect(ks.length).toBe(kl.length + 1);
    for (const k of kl) expect(ks).toContain(k);
    // The first fetch of a cold tap: a 1 s segment of the starter is a fraction of the ladder's first.
    const size = (dir: string, file: string) => readFileSync(join(out, dir, file)).length;
    expect(size('v240', starter.segments[0]!.file)).toBeLessThan(size('v360', ladder.segments[0]!.file) / 2);
    // small.mp4 stays the 360p rung (offline copies, plain <video>).
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      join(out, 'small.mp4'),
    ]);
    expect(stdout.trim()).toBe('640,360');
  }, 120_000);
});
