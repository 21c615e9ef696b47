import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The one short clip and poster every seeded video points at, made with ffmpeg once per DATA_DIR.

/** One small real video (and poster) all seeded rows point at, so media URLs play. */
export function ensureMedia(mediaDir: string): { fileKey: string; posterKey: string | null; size: number; sha256: string; durationMs: number } {
  const dir = join(mediaDir, 'seed');
  mkdirSync(dir, { recursive: true });
  const clip = join(dir, 'clip.mp4');
  const poster = join(dir, 'poster.jpg');
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (!existsSync(clip)) {
    try {
      ff([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=180x320:rate=15',
        '-f',
        'lavfi',
        '-i',
        'sine',
        '-t',
        '2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-movflags',
        '+faststart',
        clip,
      ]);
    } catch (e) {
      throw new Error(`seed: ffmpeg could not make the sample video ${clip}: ${(e as Error).message}`);
    }
  }
  let posterKey: string | null = 'seed/poster.jpg';
  if (!existsSync(poster)) {
    try {
      ff(['-i', clip, '-frames:v', '1', poster]);
    } catch {
      posterKey = null;
    }
  }
  const bytes = readFileSync(clip);
  return { fileKey: 'seed/clip.mp4', posterKey, size: statSync(clip).size, sha256: createHash('sha256').update(bytes).digest('hex'), durationMs: 2000 };
}
