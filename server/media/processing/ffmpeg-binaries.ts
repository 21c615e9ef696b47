import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
  source: 'env' | 'system' | 'npm';
}

/** ffmpeg or ffprobe cannot be found, cannot run, or lacks a codec the pipeline needs. */
export class FfmpegMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FfmpegMissingError';
  }
}

const HOW_TO_FIX =
  'Install ffmpeg (e.g. `apt-get install ffmpeg`), set FFMPEG_PATH and FFPROBE_PATH, or run `npm install` so the optional packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe are present.';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` on PATH, as the shell would find it. */
export function which(name: string, env: Record<string, string | undefined> = process.env): string | undefined {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (!folder) continue;
    const file = join(folder, name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

function fromEnv(env: Record<string, string | undefined>): FfmpegBinaries | undefined {
  const ffmpeg = env.FFMPEG_PATH;
  const given = env.FFPROBE_PATH;
  if (!ffmpeg && !given) return undefined;
  if (!ffmpeg) throw new FfmpegMissingError(`FFPROBE_PATH is set but FFMPEG_PATH is not. ${HOW_TO_FIX}`);
  if (!isExecutable(ffmpeg)) throw new FfmpegMissingError(`FFMPEG_PATH=${ffmpeg} is not an executable file. ${HOW_TO_FIX}`);
  // An ffmpeg folder almost always holds its ffprobe too, so FFPROBE_PATH is optional.
  const ffprobe = given ?? join(dirname(ffmpeg), 'ffprobe');
  if (!isExecutable(ffprobe)) {
    throw new FfmpegMissingError(`${given ? `FFPROBE_PATH=${given}` : `No ffprobe next to FFMPEG_PATH (${ffprobe})`} is not an executable file. ${HOW_TO_FIX}`);
  }
  return { ffmpeg, ffprobe, source: 'env' };
}

/** The path an @ffmpeg-installer style package exports, or undefined when it is not installed. */
function npmBinary(pkg: string): string | undefined {
  try {
    // These packages throw a bare string on unsupported platforms, hence the catch-all.
    const path = (createRequire(import.meta.url)(pkg) as { path?: unknown }).path;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where ffmpeg and ffprobe are: FFMPEG_PATH / FFPROBE_PATH first, then PATH, then the npm packages
 * (docs/decisions/0015-ffmpeg-binaries.md). Both binaries come from the same place so their
 * versions match.
 */
export function findFfmpeg(env: Record<string, string | undefined> = process.env): FfmpegBinaries {
  const configured = fromEnv(env);
  if (configured) return configured;
  const ffmpeg = which('ffmpeg', env);
  const ffprobe = which('ffprobe', env);
  if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'system' };
  const npmFfmpeg = npmBinary('@ffmpeg-installer/ffmpeg');
  const npmFfprobe = npmBinary('@ffprobe-installer/ffprobe');
  if (npmFfmpeg && npmFfprobe) return { ffmpeg: npmFfmpeg, ffprobe: npmFfprobe, source: 'npm' };
  const missing = [!ffmpeg && !npmFfmpeg && 'ffmpeg', !ffprobe && !npmFfprobe && 'ffprobe'].filter(Boolean).join(' and ');
  throw new FfmpegMissingError(`${missing || 'A matching ffmpeg and ffprobe pair'} could not be found on PATH or in node_modules. ${HOW_TO_FIX}`);
}

/** What the pipeline needs from a build: [list flag, name, what to call it in a message]. */
const REQUIRED: ReadonlyArray<readonly ['-encoders' | '-decoders' | '-muxers', string, string]> = [
  ['-encoders', 'libx264', 'the libx264 encoder (H.264)'],
  ['-encoders', 'aac', 'the aac encoder'],
  ['-decoders', 'hevc', 'the hevc decoder (iPhone videos)'],
  ['-muxers', 'hls', 'the hls muxer'],
];

async function listing(ffmpeg: string, flag: string): Promise<Set<string>> {
  const { stdout } = await run(ffmpeg, ['-hide_banner', flag], { timeout: 20_000, maxBuffer: 4 << 20 });
  // Lines look like " V..... libx264   description" (codecs) or "  E hls   description" (muxers).
  const names = new Set<string>();
  for (const line of stdout.split('\n')) {
    const m = /^\s*[A-Z.]{1,6}\s+(\S+)\s/.exec(line);
    if (m?.[1]) for (const n of m[1].split(',')) names.add(n);
  }
  return names;
}

/** Runs both binaries once and checks they can do what processVideo asks of them. */
export async function checkFfmpeg(b: FfmpegBinaries): Promise<void> {
  for (const bin of [b.ffmpeg, b.ffprobe]) {
    try {
      await run(bin, ['-hide_banner', '-version'], { timeout: 20_000 });
    } catch (e) {
      throw new FfmpegMissingError(`${bin} (from ${b.source}) could not be run: ${(e as Error).message}. ${HOW_TO_FIX}`);
    }
  }
  const lists = new Map<string, Set<string>>();
  const missing: string[] = [];
  for (const [flag, name, label] of REQUIRED) {
    let names = lists.get(flag);
    if (!names) lists.set(flag, (names = await listing(b.ffmpeg, flag)));
    if (!names.has(name)) missing.push(label);
  }
  if (missing.length) {
    throw new FfmpegMissingError(
      `${b.ffmpeg} (from ${b.source}) lacks ${missing.join(', ')}. Use a full ffmpeg build (Debian's ffmpeg package has them) via FFMPEG_PATH.`,
    );
  }
}
