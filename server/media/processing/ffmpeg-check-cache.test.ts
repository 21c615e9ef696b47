import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FfmpegMissingError, type FfmpegBinaries } from './ffmpeg-binaries';
import { checkFfmpegOnce, checkFileName } from './ffmpeg-check-cache';

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

  it('neither trusts nor fills a folder others may write to: a planted passed check is ignored', async () => {
    // `true` runs and prints nothing: the check fails, unless a remembered pass is believed.
    const broken: FfmpegBinaries = { ffmpeg: wrapper('ffmpeg', '/bin/true'), ffprobe: wrapper('ffprobe', '/bin/true'), source: 'env' };
    const good: FfmpegBinaries = { ffmpeg: wrapper('good-ffmpeg', '/usr/bin/ffmpeg'), ffprobe: wrapper('good-ffprobe', '/usr/bin/ffprobe'), source: 'env' };
    const pass = JSON.stringify(await checkFfmpegOnce(good, checks()));
    // What another account could do in a shared folder: leave a pass under the broken build's name.
    const shared = join(dir, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    writeFileSync(join(shared, checkFileName(broken)), pass);
    await expect(checkFfmpegOnce(broken, shared)).rejects.toBeInstanceOf(FfmpegMissingError);
    // The same entry in the user's own folder is believed: what the shared folder's refusal guards.
    writeFileSync(join(checks(), checkFileName(broken)), pass);
    await expect(checkFfmpegOnce(broken, checks())).resolves.toEqual(JSON.parse(pass));
    // Nor is a pass written there.
    await checkFfmpegOnce(good, shared);
    expect(readdirSync(shared)).toEqual([checkFileName(broken)]);
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
