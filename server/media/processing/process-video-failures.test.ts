import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import * as clips from '#tests/fixtures/media-clips';
import type { FfmpegBinaries } from './ffmpeg-binaries';
import { checkFfmpeg, findFfmpeg } from './ffmpeg-binaries';
import type { ProcessOptions } from './process-video';
import { MediaProcessingError, processVideo } from './process-video';

const run = promisify(execFile);
const system = findFfmpeg();
const scratch = join(tmpdir(), `vidi-processing-failures-${process.pid}`);
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  clips.removeMediaClips();
});

let n = 0;
async function outDir(): Promise<string> {
  const dir = join(scratch, `out-${++n}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function attempt(source: string, extra: Partial<ProcessOptions> = {}): Promise<{ error: unknown; out: string }> {
  const out = await outDir();
  const error = await processVideo({ binaries: system, source, outDir: out, threads: 2, nice: 0, makePoster: true, preset: 'superfast', ...extra }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, out };
}

async function refusal(source: string): Promise<MediaProcessingError> {
  const { error, out } = await attempt(source);
  expect(error).toBeInstanceOf(MediaProcessingError);
  // A failed run leaves the folder as it found it: empty, ready for a retry.
  expect(await readdir(out)).toEqual([]);
  return error as MediaProcessingError;
}

describe('processVideo refuses what cannot be processed, with a reason', () => {
  it('a file with no video track', async () => {
    const e = await refusal(await clips.audioOnly());
    expect(e.reason).toBe('the file has no video track');
    expect(e.permanent).toBe(true);
  });

  it('a file whose header is fine but whose body is noise', async () => {
    const e = await refusal(await clips.corruptBody());
    expect(e.reason).toMatch(/could not be decoded/);
    expect(e.permanent).toBe(true);
  });

  it('a truncated file', async () => {
    const e = await refusal(await clips.truncated());
    expect(e.reason).toMatch(/truncated or damaged: only [\d.]+ of 2\.0 seconds/);
    expect(e.permanent).toBe(true);
  });

  it('an empty file', async () => {
    const e = await refusal(await clips.emptyFile());
    expect(e.reason).toBe('the file is not a video that can be read');
  });
});

describe('processVideo cancellation', () => {
  it('stops ffmpeg and rejects promptly when the signal aborts mid-encode', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const { error, out } = await attempt(await clips.h264At60(), {
      signal: controller.signal,
      preset: 'veryfast',
      onProgress: (p) => {
        if (p > 0 && !abortedAt) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    const settled = Date.now();
    expect(abortedAt).toBeGreaterThan(0);
    expect((error as Error).name).toBe('AbortError');
    expect(settled - abortedAt).toBeLessThan(2000);
    expect(await readdir(out)).toEqual([]);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { error } = await attempt(await clips.landscapeWithAudio(), { signal: AbortSignal.abort() });
    expect((error as Error).name).toBe('AbortError');
  });
});

// The npm fallback (linux-x64: FFmpeg 7.0, docs/decisions/0015-ffmpeg-binaries.md): the same arguments must work with it.
const npm: FfmpegBinaries | undefined = (() => {
  try {
    const b = findFfmpeg({ PATH: '' });
    return b.source === 'npm' ? b : undefined;
  } catch {
    return undefined;
  }
})();

describe.skipIf(!npm)('processVideo with the npm ffmpeg build', () => {
  it('passes the build check', async () => {
    await checkFfmpeg(npm!);
  });

  it('processes a rotated clip with audio: portrait, H.264 + AAC, master playlist, small.mp4 and poster', async () => {
    const out = await outDir();
    const progress: number[] = [];
    const result = await processVideo({
      binaries: npm!,
      source: await clips.rotated90(),
      outDir: out,
      threads: 2,
      nice: 0,
      makePoster: true,
      onProgress: (p) => progress.push(p),
    });
    expect(result.renditions).toEqual([
      { name: 'v360', width: 360, height: 640, bandwidth: expect.any(Number), codecs: expect.stringMatching(/^avc1\.64001[ef],mp4a\.40\.2$/) },
    ]);
    expect(result).toMatchObject({ hasAudio: true, poster: true, durationMs: 2000 });
    expect(progress.at(-1)).toBe(100);
    const master = await readFile(join(out, 'master.m3u8'), 'utf8');
    expect(master).toContain('RESOLUTION=360x640');
    for (const f of ['v360/index.m3u8', 'v360/init.mp4', 'v360/seg_00001.m4s', 'small.mp4', 'poster.jpg']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(await readFile(join(out, 'v360/index.m3u8'), 'utf8')).toContain('#EXT-X-MAP:URI="init.mp4"');
    // Upright pixels and no rotation left in the output, or players would turn it a second time.
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-select_streams', 'v', join(out, 'small.mp4')]);
    const [v] = (JSON.parse(stdout) as { streams: Array<{ width: number; height: number; side_data_list?: unknown[]; tags?: { rotate?: string } }> }).streams;
    expect([v?.width, v?.height, v?.side_data_list, v?.tags?.rotate]).toEqual([360, 640, undefined, undefined]);
  });

  it('tone-maps the HDR clip too', async () => {
    const out = await outDir();
    const result = await processVideo({ binaries: npm!, source: await clips.hdr10Bit(), outDir: out, threads: 2, nice: 0, makePoster: false });
    expect(result.renditions.map((r) => `${r.width}x${r.height}`)).toEqual(['640x360']);
  });
});
