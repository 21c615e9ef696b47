import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFfmpeg, type FfmpegBinaries, type FfmpegCheck } from './ffmpeg-binaries';

/**
 * checkFfmpeg runs the two binaries five times (versions and the encoder, decoder and muxer lists):
 * about 0.4 s of CPU at every start of a server or worker. A passed check is remembered per build,
 * keyed by each binary's path, size, modification time and inode, so a replaced binary is checked
 * again. A Debian ffmpeg and the libav* libraries that define its codecs come from one source
 * package and are upgraded together, so a new library means a new binary too. A failed check is
 * never remembered: the next start tries again and says why.
 */
export async function checkFfmpegOnce(b: FfmpegBinaries, dir = join(tmpdir(), 'vidi-ffmpeg-checks')): Promise<FfmpegCheck> {
  const file = join(dir, `${buildKey(b)}.json`);
  const remembered = readCheck(file);
  if (remembered) return remembered;
  const check = await checkFfmpeg(b);
  try {
    mkdirSync(dir, { recursive: true });
    // Written whole through a rename, so a process starting meanwhile never reads half of it.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(check));
    renameSync(temp, file);
  } catch {
    // A read-only or full temp folder only means checking again at the next start.
  }
  return check;
}

function buildKey(b: FfmpegBinaries): string {
  const identity = [b.ffmpeg, b.ffprobe].map((path) => {
    const s = statSync(path);
    return [path, s.size, s.mtimeMs, s.ino];
  });
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

function readCheck(file: string): FfmpegCheck | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<FfmpegCheck>;
    return value.ffmpeg?.version && value.ffprobe?.version ? (value as FfmpegCheck) : undefined;
  } catch {
    return undefined;
  }
}
