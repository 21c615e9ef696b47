import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFfmpeg, FfmpegMissingError, findFfmpeg } from './ffmpeg-binaries';

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

  it('falls back to the npm packages when PATH has none', () => {
    const npmThere = existsSync('node_modules/@ffmpeg-installer/linux-x64/ffmpeg');
    if (!npmThere) return expect(() => findFfmpeg({ PATH: '' })).toThrow(/ffmpeg and ffprobe could not be found/);
    const b = findFfmpeg({ PATH: '' });
    expect(b.source).toBe('npm');
    expect(b.ffmpeg).toMatch(/@ffmpeg-installer/);
    expect(b.ffprobe).toMatch(/@ffprobe-installer/);
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
