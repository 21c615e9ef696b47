import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiskMediaStore } from '../storage/disk-media-store';
import type { MediaStore } from '../storage/media-store';
import type { SeedMedia } from './seed-rows';

// The one short clip and poster every seeded video points at, made with ffmpeg once per DATA_DIR.

/**
 * Where the seed's media go: a media folder (the disk store over it), or a store with a local
 * folder where ffmpeg makes the files before they are stored.
 */
export type SeedMediaTarget = string | { store: MediaStore; localDir: string };

/** One small real video (and poster) all seeded rows point at, so media URLs play. */
export async function ensureMedia(target: SeedMediaTarget): Promise<SeedMedia> {
  // On disk the files are made in place, under the keys' own folder: storing them is then a no-op.
  const { store, localDir: dir } = typeof target === 'string' ? { store: new DiskMediaStore(target), localDir: join(target, 'seed') } : target;
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
  await store.putOnce('seed/clip.mp4', bytes, 'video/mp4');
  if (posterKey) await store.putOnce(posterKey, readFileSync(poster), 'image/jpeg');
  return { fileKey: 'seed/clip.mp4', posterKey, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), durationMs: 2000 };
}
