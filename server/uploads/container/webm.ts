import { ContainerError, type ByteSource, type VideoInfo } from './byte-source';

// EBML (Matroska/WebM): elements are [id: vint with its marker][size: vint][data]. A size of all
// ones means "unknown" (live recordings), which only Segment and Cluster may use.

export const EBML_ID = 0x1a45dfa3;
const DOCTYPE_ID = 0x4282;
const SEGMENT_ID = 0x18538067;
const INFO_ID = 0x1549a966;
const CLUSTER_ID = 0x1f43b675;
const TIMECODE_SCALE_ID = 0x2ad7b1;
const DURATION_ID = 0x4489;
const MAX_ELEMENTS = 10_000;

export interface EbmlElement {
  id: number;
  start: number;
  dataStart: number;
  /** null when the size is unknown. */
  dataSize: number | null;
}

/** Parses one variable-length integer; `keepMarker` for ids. Returns null when the bytes run out. */
export function readVint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (at + length > bytes.length) return null;
  let value = BigInt(keepMarker ? first : first & (0xff >> length));
  let allOnes = (first & (0xff >> length)) === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = bytes[at + i] ?? 0;
    value = (value << 8n) | BigInt(b);
    if (b !== 0xff) allOnes = false;
  }
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return { value: Number.MAX_SAFE_INTEGER, length, unknown: !keepMarker && allOnes };
  return { value: Number(value), length, unknown: !keepMarker && allOnes };
}

export async function readElement(src: ByteSource, at: number): Promise<EbmlElement> {
  const head = await src.read(at, 12);
  const id = readVint(head, 0, true);
  const size = id && id.length <= 4 ? readVint(head, id.length, false) : null;
  if (!id || !size) throw new ContainerError('truncated_file', 'The WebM file is truncated or damaged (an element header is cut off).');
  return { id: id.value, start: at, dataStart: at + id.length + size.length, dataSize: size.unknown ? null : size.value };
}

export function looksLikeEbml(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
}

function readUint(bytes: Uint8Array): number {
  let v = 0;
  for (const b of bytes) v = v * 256 + b;
  return v;
}

function readFloat(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length === 4) return dv.getFloat32(0);
  if (bytes.length === 8) return dv.getFloat64(0);
  return Number.NaN;
}

/** Walks the children of [from, to) and calls `visit` for each; stops when it returns true. */
async function walk(src: ByteSource, from: number, to: number, visit: (el: EbmlElement) => Promise<boolean>): Promise<void> {
  let at = from;
  for (let n = 0; at < to; n++) {
    if (n >= MAX_ELEMENTS) throw new ContainerError('invalid_container', 'The WebM file is damaged (too many elements).');
    const el = await readElement(src, at);
    if (await visit(el)) return;
    if (el.dataSize === null) return;
    at = el.dataStart + el.dataSize;
  }
}

/**
 * Checks that the file is an EBML document of DocType "webm" and reads Segment/Info/Duration
 * (in TimecodeScale units, nanoseconds each by default).
 */
export async function inspectWebm(src: ByteSource): Promise<VideoInfo> {
  const header = await readElement(src, 0);
  if (header.id !== EBML_ID || header.dataSize === null) throw new ContainerError('unsupported_format', 'The file is not a WebM video.');
  const headerEnd = header.dataStart + header.dataSize;
  if (headerEnd > src.size) throw new ContainerError('truncated_file', 'The WebM file is truncated.');
  let docType = '';
  await walk(src, header.dataStart, headerEnd, async (el) => {
    if (el.id === DOCTYPE_ID && el.dataSize !== null) {
      docType = new TextDecoder().decode(await src.read(el.dataStart, Math.min(el.dataSize, 64))).replace(/\0+$/, '');
      return true;
    }
    return false;
  });
  if (docType !== 'webm') {
    throw new ContainerError('unsupported_format', `The file is an EBML document of type "${docType || 'unknown'}", not a WebM video.`);
  }

  const segment = await readElement(src, headerEnd);
  if (segment.id !== SEGMENT_ID) throw new ContainerError('invalid_container', 'The WebM file is damaged (no Segment after the header).');
  const segmentEnd = segment.dataSize === null ? src.size : segment.dataStart + segment.dataSize;
  if (segmentEnd > src.size) throw new ContainerError('truncated_file', 'The WebM file is truncated (its Segment runs past the end of the file).');

  let timecodeScale = 1_000_000;
  let duration: number | null = null;
  let sawInfo = false;
  await walk(src, segment.dataStart, segmentEnd, async (el) => {
    if (el.id === CLUSTER_ID) return true;
    if (el.id !== INFO_ID || el.dataSize === null) return false;
    sawInfo = true;
    await walk(src, el.dataStart, Math.min(el.dataStart + el.dataSize, segmentEnd), async (child) => {
      if (child.dataSize === null || child.dataSize > 8) return false;
      if (child.id === TIMECODE_SCALE_ID) timecodeScale = readUint(await src.read(child.dataStart, child.dataSize));
      if (child.id === DURATION_ID) duration = readFloat(await src.read(child.dataStart, child.dataSize));
      return false;
    });
    return true;
  });
  if (!sawInfo) throw new ContainerError('invalid_container', 'The WebM file is damaged (no Segment Info).');
  const d = duration as number | null;
  if (d === null || !Number.isFinite(d) || d <= 0) throw new ContainerError('unknown_duration', 'The WebM file does not record its duration.');
  if (timecodeScale <= 0) throw new ContainerError('invalid_container', 'The WebM file is damaged (its timecode scale is 0).');
  return { container: 'webm', mimeType: 'video/webm', extension: 'webm', durationMs: Math.round((d * timecodeScale) / 1e6), faststart: true };
}
