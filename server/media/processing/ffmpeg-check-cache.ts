import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
 *
 * The folder is the user's own, in the shared temp folder: an entry is read or written only while
 * the folder is a real directory of this user that nobody else may write to, so another account on
 * the machine cannot plant a passed check for a broken build.
 */
export async function checkFfmpegOnce(b: FfmpegBinaries, dir = defaultChecksDir()): Promise<FfmpegCheck> {
  const file = join(dir, checkFileName(b));
  const trusted = ownPrivateDir(dir);
  const remembered = trusted ? readCheck(file) : undefined;
  if (remembered) return remembered;
  const check = await checkFfmpeg(b);
  if (!trusted) return check;
  try {
    // Written whole through a rename, so a process starting meanwhile never reads half of it.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(check));
    renameSync(temp, file);
  } catch {
    // A read-only or full temp folder only means checking again at the next start.
  }
  return check;
}

function defaultChecksDir(): string {
  return join(tmpdir(), `vidi-ffmpeg-checks-${process.getuid?.() ?? 'user'}`);
}

/** Creates `dir` (mode 700) if missing; whether it is a directory of this user, closed to everyone else. */
function ownPrivateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = lstatSync(dir);
    return s.isDirectory() && s.uid === process.getuid?.() && (s.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The file a build's passed check is kept in: each binary's path, size, modification time and inode, hashed. */
export function checkFileName(b: FfmpegBinaries): string {
  const identity = [b.ffmpeg, b.ffprobe].map((path) => {
    const s = statSync(path);
    return [path, s.size, s.mtimeMs, s.ino];
  });
  return `${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)}.json`;
}

function readCheck(file: string): FfmpegCheck | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<FfmpegCheck>;
    return value.ffmpeg?.version && value.ffprobe?.version ? (value as FfmpegCheck) : undefined;
  } catch {
    return undefined;
  }
}
