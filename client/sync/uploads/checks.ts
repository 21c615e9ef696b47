/** Same limit as the server's Tus-Max-Size (120 MiB). */
export const MAX_UPLOAD_BYTES = 125_829_120;
export const MAX_DURATION_MS = 120_000;

export interface ToastCopy {
  title: string;
  description: string;
}

// The product's copy, verbatim; the duration check is ours (docs/decisions/0012-videos-checked-by-content-resumable-and-ranged.md).
export const TOO_LARGE: ToastCopy = { title: 'File too large', description: 'Please select a video under 120MB (approximately 2 minutes)' };
export const INVALID_TYPE: ToastCopy = { title: 'Invalid file type', description: 'Please select a video file' };
export const MISSING_INFO: ToastCopy = { title: 'Missing information', description: 'Please provide a title and select a video file' };
export const TOO_LONG: ToastCopy = { title: 'Video too long', description: 'Please select a video of 2 minutes or less' };
export const UPLOADED: ToastCopy = { title: 'Video uploaded!', description: 'Your video has been shared successfully' };
export const UPLOAD_FAILED_TITLE = 'Upload failed';
export const UPLOAD_FAILED_FALLBACK = 'Something went wrong. Please try again.';

/** The checks on a picked file (size, type); null when it may be queued. */
export function checkFile(file: { size: number; type: string }): ToastCopy | null {
  if (file.size > MAX_UPLOAD_BYTES) return TOO_LARGE;
  if (!file.type.startsWith('video/')) return INVALID_TYPE;
  return null;
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

/** The content check on the device, before anything is uploaded: a file that is plainly no video gets 'Invalid file type'. */
export async function checkVideoBytes(file: Blob): Promise<ToastCopy | null> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return looksLikeVideo(head) ? null : INVALID_TYPE;
}

/** Everything checked before queueing. `durationMs` null: the browser could not read it (the server still checks). */
export function checkUpload(input: { title: string; file: { size: number; type: string } | null; durationMs: number | null }): ToastCopy | null {
  if (!input.title.trim() || !input.file) return MISSING_INFO;
  const fileProblem = checkFile(input.file);
  if (fileProblem) return fileProblem;
  if (input.durationMs !== null && input.durationMs > MAX_DURATION_MS) return TOO_LONG;
  return null;
}

/** Captions: a WebVTT file of at most 100 KB (the server checks every cue again). */
export const MAX_CAPTIONS_BYTES = 100 * 1024;
export const INVALID_CAPTIONS: ToastCopy = { title: 'Invalid captions file', description: 'Please select a WebVTT (.vtt) file of at most 100 KB' };

/** The checks on a picked captions file: its size and the WEBVTT signature on its first line. */
export async function checkCaptions(file: Blob): Promise<ToastCopy | null> {
  if (file.size === 0 || file.size > MAX_CAPTIONS_BYTES) return INVALID_CAPTIONS;
  const head = (await file.slice(0, 16).text()).replace(/^\uFEFF/, '');
  return /^WEBVTT(?:[ \t\r\n]|$)/.test(head) ? null : INVALID_CAPTIONS;
}
