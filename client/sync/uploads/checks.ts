import { MAX_CAPTIONS_BYTES, MAX_DURATION_MS, MAX_UPLOAD_BYTES } from '#sync/protocol/limits';

/**
 * Why a picked file or the upload form cannot be queued. The checks only name the problem; the
 * upload feature says it on screen (client/features/upload/upload-copy.ts).
 */
export type UploadProblem = 'too_large' | 'invalid_type' | 'missing_info' | 'too_long' | 'invalid_captions';

/** The checks on a picked file (size, type); null when it may be queued. */
export function checkFile(file: { size: number; type: string }): UploadProblem | null {
  if (file.size > MAX_UPLOAD_BYTES) return 'too_large';
  if (!file.type.startsWith('video/')) return 'invalid_type';
  return null;
}

/** A duration the browser read (null: it could not) that is over the limit. */
export function tooLong(durationMs: number | null): boolean {
  return durationMs !== null && durationMs > MAX_DURATION_MS;
}

/**
 * True when the first bytes start a container the server takes (server/uploads/container/inspect.ts
 * decides by the same bytes): an MP4 / QuickTime `ftyp` box of at least 12 bytes, or the EBML magic
 * 1A 45 DF A3 of WebM / Matroska. A text file renamed .mp4 is neither.
 */
export function looksLikeVideo(head: Uint8Array): boolean {
  const ftyp = head.length >= 12 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70;
  const boxSize = head.length >= 4 ? new DataView(head.buffer, head.byteOffset, 4).getUint32(0) : 0;
  const ebml = head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
  return (ftyp && boxSize >= 12) || ebml;
}

/** The content check on the device, before anything is uploaded: a file that is plainly no video is 'invalid_type'. */
export async function checkVideoBytes(file: Blob): Promise<UploadProblem | null> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return looksLikeVideo(head) ? null : 'invalid_type';
}

/** Everything checked before queueing. `durationMs` null: the browser could not read it (the server still checks). */
export function checkUpload(input: { title: string; file: { size: number; type: string } | null; durationMs: number | null }): UploadProblem | null {
  if (!input.title.trim() || !input.file) return 'missing_info';
  return checkFile(input.file) ?? (tooLong(input.durationMs) ? 'too_long' : null);
}

/** The checks on a picked captions file (the server checks every cue again): its size and the WEBVTT signature on its first line. */
export async function checkCaptions(file: Blob): Promise<UploadProblem | null> {
  if (file.size === 0 || file.size > MAX_CAPTIONS_BYTES) return 'invalid_captions';
  const head = (await file.slice(0, 16).text()).replace(/^\uFEFF/, '');
  return /^WEBVTT(?:[ \t\r\n]|$)/.test(head) ? null : 'invalid_captions';
}
