import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { findCheckedFfmpeg } from '../jobs/start';
import { checkFfmpeg, describeFfmpeg, FfmpegMissingError, findFfmpeg, parseFfmpegVersion } from './ffmpeg-binaries';

describe('findFfmpeg', () => {
  it('finds the system binaries on PATH', () => {
    const b = findFfmpeg({ PATH: '/usr/local/bin:/usr/bin:/bin' });
    expect(b).toEqual({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', source: 'system' });
  });

  it('prefers FFMPEG_PATH, taking ffprobe from the same folder when FFPROBE_PATH is unset', () => {
    expect(findFfmpeg({ FFMPEG_PATH: '/usr/bin/ffmpeg', PATH: '' })).toEqual({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', source: 'env' });
  });

  it('refuses an FFMPEG_PATH that is not there, naming it and the fixes', () => {
    expect(() => findFfmpeg({ FFMPEG_PATH: '/nowhere/ffmpeg' })).toThrow(FfmpegMissingError);
    expect(() => findFfmpeg({ FFMPEG_PATH: '/nowhere/ffmpeg' })).toThrow(/FFMPEG_PATH=\/nowhere\/ffmpeg.*apt-get install ffmpeg/);
  });

  it('falls back to the npm packages when PATH has none (linux-x64: ffmpeg 7.0 and a 2023 ffprobe)', () => {
    if (`${process.platform}-${process.arch}` !== 'linux-x64') return expect(() => findFfmpeg({ PATH: '' })).toThrow(/ffmpeg and ffprobe could not be found/);
    const b = findFfmpeg({ PATH: '' });
    expect(b.source).toBe('npm');
    expect(b.ffmpeg).toMatch(/node_modules\/@ffmpeg-binary\/linux-x64\/ffmpeg$/);
    expect(b.ffprobe).toMatch(/node_modules\/@ffprobe-installer\/linux-x64\/ffprobe$/);
  });
});

// The first lines of `-version` of the 2018 build the project used to fall back to (@ffmpeg-installer/linux-x64 4.1.0).
const OLD_BUILD = `ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2018 the FFmpeg developers
built with gcc 6.3.0 (Debian 6.3.0-18+deb9u1) 20170516
libavutil      56. 24.101 / 56. 24.101
libavcodec     58. 42.100 / 58. 42.100`;

describe('the version of a build', () => {
  it('reads the version and tells FFmpeg 5.1 or newer by libavutil', () => {
    expect(parseFfmpegVersion(OLD_BUILD)).toEqual({ version: 'N-47683-g0e8eb07980-static', libavutil: '56.24', current: false });
    expect(parseFfmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright\nlibavutil      57. 28.100 / 57. 28.100')).toMatchObject({ current: true });
    expect(parseFfmpegVersion('ffmpeg version 5.0.3\nlibavutil      57. 17.100 / 57. 17.100')).toMatchObject({ current: false });
    expect(parseFfmpegVersion('not ffmpeg at all')).toEqual({ version: 'unknown', libavutil: 'unknown', current: false });
  });

  it('the npm fallback is a maintained build: FFmpeg 5.1 or newer, with all the pipeline needs', async () => {
    const b = findFfmpeg({ PATH: '' });
    const check = await checkFfmpeg(b);
    console.log(
      `npm fallback: ffmpeg ${check.ffmpeg.version} (libavutil ${check.ffmpeg.libavutil}), ffprobe ${check.ffprobe.version} (libavutil ${check.ffprobe.libavutil})`,
    );
    expect(check.ffmpeg.current).toBe(true);
    expect(check.ffprobe.current).toBe(true);
    expect(check.ffmpeg.version).toMatch(/^n7\.0/);
  });

  it('start-up names the build it uses, once, and warns only for one older than 5.1', async () => {
    const said: Array<['log' | 'warn', string]> = [];
    const say = { log: (l: string) => said.push(['log', l]), warn: (l: string) => said.push(['warn', l]) };
    const b = await findCheckedFfmpeg(loadConfig({}), say);
    expect(said).toEqual([['log', expect.stringContaining(`ffmpeg: ${b.ffmpeg} (`)]]);
    const old = describeFfmpeg(
      { ffmpeg: '/opt/old/ffmpeg', ffprobe: '/opt/old/ffprobe', source: 'env' },
      { ffmpeg: parseFfmpegVersion(OLD_BUILD), ffprobe: parseFfmpegVersion(OLD_BUILD) },
    );
    expect(old.line).toBe('ffmpeg: /opt/old/ffmpeg (N-47683-g0e8eb07980-static) and /opt/old/ffprobe (N-47683-g0e8eb07980-static), from env');
    expect(old.warning).toMatch(/^WARNING: ffmpeg N-47683.* older than FFmpeg 5\.1\..*security fixes.*apt-get install ffmpeg/);
  });
});

describe('checkFfmpeg', () => {
  it('accepts the system build', async () => {
    await checkFfmpeg(findFfmpeg({ PATH: '/usr/bin' }));
  });

  it('names what a build lacks', async () => {
    // `true` runs and prints nothing: a build with no encoders, decoders or muxers at all.
    const err = await checkFfmpeg({ ffmpeg: '/bin/true', ffprobe: '/bin/true', source: 'env' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegMissingError);
    expect((err as Error).message).toMatch(/libx264.*aac.*hevc.*hls/);
  });

  it('says when a binary cannot run', async () => {
    await expect(checkFfmpeg({ ffmpeg: '/etc/hostname', ffprobe: '/usr/bin/ffprobe', source: 'env' })).rejects.toThrow(/could not be run/);
  });
});
