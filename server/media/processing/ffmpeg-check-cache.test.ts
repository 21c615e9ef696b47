import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FfmpegMissingError, type FfmpegBinaries } from './ffmpeg-binaries';
import { checkFfmpegOnce } from './ffmpeg-check-cache';

// Each binary is a script that notes every run in a log, then runs the real program.
let dir: string;
const runs = () => readFileSync(join(dir, 'runs'), 'utf8').split('\n').filter(Boolean).length;

function wrapper(name: string, real: string, extra = ''): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho run >> "${join(dir, 'runs')}"\n${extra}exec ${real} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidi-ffmpeg-check-'));
  appendFileSync(join(dir, 'runs'), '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('checkFfmpegOnce', () => {
  const checks = () => join(dir, 'checks');

  it('runs a build once, then answers from what it remembered', async () => {
    const b: FfmpegBinaries = { ffmpeg: wrapper('ffmpeg', '/usr/bin/ffmpeg'), ffprobe: wrapper('ffprobe', '/usr/bin/ffprobe'), source: 'env' };
    const first = await checkFfmpegOnce(b, checks());
    const afterFirst = runs();
    expect(afterFirst).toBeGreaterThanOrEqual(2);
    expect(first.ffmpeg.current).toBe(true);
    expect(await checkFfmpegOnce(b, checks())).toEqual(first);
    expect(runs()).toBe(afterFirst);
  });

  it('checks a replaced binary again', async () => {
    const b: FfmpegBinaries = { ffmpeg: wrapper('ffmpeg', '/usr/bin/ffmpeg'), ffprobe: wrapper('ffprobe', '/usr/bin/ffprobe'), source: 'env' };
    await checkFfmpegOnce(b, checks());
    const afterFirst = runs();
    wrapper('ffmpeg', '/usr/bin/ffmpeg', ': a new build\n');
    await checkFfmpegOnce(b, checks());
    expect(runs()).toBeGreaterThan(afterFirst);
  });

  it('never remembers a failed check', async () => {
    // `true` runs and prints nothing: a build with no encoders, decoders or muxers at all.
    const b: FfmpegBinaries = { ffmpeg: wrapper('ffmpeg', '/bin/true'), ffprobe: wrapper('ffprobe', '/bin/true'), source: 'env' };
    await expect(checkFfmpegOnce(b, checks())).rejects.toBeInstanceOf(FfmpegMissingError);
    const afterFirst = runs();
    await expect(checkFfmpegOnce(b, checks())).rejects.toThrow(/libx264/);
    expect(runs()).toBeGreaterThan(afterFirst);
  });
});
