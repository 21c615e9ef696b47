import { isVideoBrand } from './brands';
import { ContainerError, type ByteSource, type VideoInfo } from './byte-source';

// ISO base media file format (MP4) and QuickTime: a file is a sequence of boxes
// [size:u32][type:4cc][largesize:u64 when size == 1], size 0 meaning "to the end of the file".

export interface BoxHeader {
  type: string;
  start: number;
  headerSize: number;
  /** Offset just past the box. */
  end: number;
}

const MAX_BOXES = 10_000;

export function fourCC(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads the box header at `start`; `limit` is the end of the enclosing box (or file). */
export async function readBoxHeader(src: ByteSource, start: number, limit: number): Promise<BoxHeader> {
  const head = await src.read(start, 16);
  if (head.length < 8) throw new ContainerError('truncated_file', 'The video file is truncated (a box header is cut off).');
  const dv = view(head);
  const size32 = dv.getUint32(0);
  const type = fourCC(head, 4);
  let headerSize = 8;
  let size: bigint;
  if (size32 === 1) {
    if (head.length < 16) throw new ContainerError('truncated_file', 'The video file is truncated (a box header is cut off).');
    headerSize = 16;
    size = dv.getBigUint64(8);
  } else if (size32 === 0) {
    size = BigInt(limit - start);
  } else {
    size = BigInt(size32);
  }
  if (size < BigInt(headerSize)) throw new ContainerError('invalid_container', `The video file is damaged (box "${printable(type)}" has an impossible size).`);
  // BigInt first: a 64-bit size like 2^64-1 is not a safe JS number.
  if (BigInt(start) + size > BigInt(limit)) {
    throw new ContainerError('truncated_file', `The video file is truncated or damaged (box "${printable(type)}" runs past the end of the file).`);
  }
  return { type, start, headerSize, end: start + Number(size) };
}

function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? type : '?';
}

/** Finds the first child box of `type` between `from` and `to`. */
async function findChild(src: ByteSource, from: number, to: number, type: string): Promise<BoxHeader | null> {
  let at = from;
  for (let n = 0; at < to && n < MAX_BOXES; n++) {
    const box = await readBoxHeader(src, at, to);
    if (box.type === type) return box;
    at = box.end;
  }
  return null;
}

/** True when the file starts with an `ftyp` box (MP4, MOV, 3GP...). */
export function looksLikeMp4(head: Uint8Array): boolean {
  return head.length >= 12 && fourCC(head, 4) === 'ftyp' && view(head).getUint32(0) >= 12;
}

/** Movie duration in ms from an mvhd payload (version 0: 32-bit fields, version 1: 64-bit). */
export function parseMvhd(payload: Uint8Array): { timescale: number; duration: bigint } {
  const dv = view(payload);
  const version = payload[0];
  if (version === 0) {
    if (payload.length < 20) throw new ContainerError('invalid_container', 'The video file is damaged (movie header too short).');
    const duration = dv.getUint32(16);
    return { timescale: dv.getUint32(12), duration: duration === 0xffffffff ? -1n : BigInt(duration) };
  }
  if (version === 1) {
    if (payload.length < 32) throw new ContainerError('invalid_container', 'The video file is damaged (movie header too short).');
    const duration = dv.getBigUint64(24);
    return { timescale: dv.getUint32(20), duration: duration === 0xffffffffffffffffn ? -1n : duration };
  }
  throw new ContainerError('invalid_container', `The video file is damaged (unknown movie header version ${String(version)}).`);
}

/**
 * Walks the top-level boxes after ftyp: every one must fit in the file, so a truncated upload is
 * refused even when its moov came first. faststart: moov before any mdat.
 */
async function findMoov(src: ByteSource, from: number): Promise<{ moov: BoxHeader | null; faststart: boolean }> {
  let moov: BoxHeader | null = null;
  let sawMdat = false;
  let faststart = false;
  let at = from;
  for (let n = 0; at < src.size; n++) {
    if (n >= MAX_BOXES) throw new ContainerError('invalid_container', 'The video file is damaged (too many boxes).');
    const box = await readBoxHeader(src, at, src.size);
    if (box.type === 'moov' && !moov) {
      moov = box;
      faststart = !sawMdat;
    }
    if (box.type === 'mdat') sawMdat = true;
    at = box.end;
  }
  return { moov, faststart };
}

/**
 * Checks an MP4/QuickTime file's structure and reads its duration from moov/mvhd, wherever moov
 * sits (front = faststart, or after mdat). Every top-level box must fit in the file, so a
 * truncated upload is refused even when its moov came first.
 */
export async function inspectMp4(src: ByteSource): Promise<VideoInfo> {
  const ftyp = await readBoxHeader(src, 0, src.size);
  if (ftyp.type !== 'ftyp') throw new ContainerError('unsupported_format', 'The file is not an MP4 or QuickTime video.');
  const brand = fourCC(await src.read(ftyp.start + ftyp.headerSize, 4), 0);
  const quicktime = brand === 'qt  ';

  const { moov, faststart } = await findMoov(src, ftyp.end);
  if (!moov) throw new ContainerError('invalid_container', 'The video file has no movie header (moov box): it is incomplete or not a video.');
  // After the walk, so a damaged file is called damaged whatever its brand.
  if (!isVideoBrand(brand))
    throw new ContainerError('unsupported_format', `The file is not a supported video (its MP4 type "${printable(brand)}" is not a video format).`);

  const mvhd = await findChild(src, moov.start + moov.headerSize, moov.end, 'mvhd');
  if (!mvhd) throw new ContainerError('invalid_container', 'The video file has no movie header (mvhd box).');
  const payload = await src.read(mvhd.start + mvhd.headerSize, Math.min(mvhd.end - mvhd.start - mvhd.headerSize, 112));
  const { timescale, duration: rawDuration } = parseMvhd(payload);
  if (timescale === 0) throw new ContainerError('invalid_container', 'The video file is damaged (its time scale is 0, so it has no valid duration).');

  let duration = rawDuration;
  if (duration <= 0n) duration = await fragmentDuration(src, moov);
  if (duration <= 0n) throw new ContainerError('unknown_duration', 'The video file does not record its duration.');
  const durationMs = Number((duration * 1000n) / BigInt(timescale));
  return {
    container: quicktime ? 'quicktime' : 'mp4',
    mimeType: quicktime ? 'video/quicktime' : 'video/mp4',
    extension: quicktime ? 'mov' : 'mp4',
    durationMs,
    faststart,
  };
}

/** Fragmented MP4 (e.g. recorded in a browser) keeps its duration in moov/mvex/mehd. */
async function fragmentDuration(src: ByteSource, moov: BoxHeader): Promise<bigint> {
  const mvex = await findChild(src, moov.start + moov.headerSize, moov.end, 'mvex');
  if (!mvex) return 0n;
  const mehd = await findChild(src, mvex.start + mvex.headerSize, mvex.end, 'mehd');
  if (!mehd) return 0n;
  const p = await src.read(mehd.start + mehd.headerSize, 12);
  const dv = view(p);
  if (p[0] === 1 && p.length >= 12) return dv.getBigUint64(4);
  if (p.length >= 8) return BigInt(dv.getUint32(4));
  return 0n;
}
