import { afterAll, describe, expect, it } from 'vitest';
import { lyingLongWebm, removeHostileMedia, testsrcClip } from '#tests/fixtures/hostile-media';
import { childFailure, MediaProcessingError } from './errors';
import { findFfmpeg } from './ffmpeg-binaries';
import { measureStreams } from './measure-streams';

const { ffprobe } = findFfmpeg();
afterAll(() => removeHostileMedia());

describe('measureStreams reads the timestamps, not the header', () => {
  it('measures an honest clip: its length and its frames', async () => {
    const m = await measureStreams({ ffprobe, container: 'mov', source: await testsrcClip(2, 5), videoIndex: 0, headerMs: 2000 });
    expect(m).toEqual({ durationMs: 2000, videoFrames: 10 });
  });

  it('refuses 600 s of frames whose header says 4 s, stopping at the first packet past the limit', async () => {
    const e = await measureStreams({ ffprobe, container: 'matroska', source: await lyingLongWebm(), videoIndex: 0, headerMs: 4000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MediaProcessingError);
    // "past 121 seconds", not 600: the read stopped at the first packet past the limit (no timing
    // assertion: the fixture's making and a busy machine would make one flaky).
    expect(e).toMatchObject({ permanent: true, reason: 'This video is longer than 2 minutes (its frames run past 121 seconds; its header says 4)' });
  });

  it('refuses a file the named demuxer cannot read', async () => {
    const e = await measureStreams({ ffprobe, container: 'matroska', source: await testsrcClip(2, 5), videoIndex: 0, headerMs: 2000 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ permanent: true, reason: 'the file is not a video that can be read' });
  });
});

describe('childFailure', () => {
  it('blames the file for an exit status, not for a kill from outside', () => {
    expect(childFailure(1, 'x\nlast words', 'bad')).toMatchObject({ reason: 'bad', permanent: true, detail: 'last words' });
    expect(childFailure(null, '', 'bad')).toMatchObject({ reason: 'processing was interrupted', permanent: false });
  });
});
