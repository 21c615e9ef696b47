import { open } from 'node:fs/promises';
import { MediaProcessingError } from './errors';
import { MAX_PIXELS } from './limits';

/** ffmpeg's demuxer for each container the upload check accepts (server/uploads/container/inspect.ts). */
export type SourceContainer = 'mov' | 'matroska';

/**
 * The container by its first bytes, the rule the upload check applied (an `ftyp` box: MP4 and
 * QuickTime; the EBML magic: WebM), read again from the file ffmpeg is about to open: the row's
 * mime type could only repeat it, and older uploads are processed too.
 */
export async function sniffContainer(source: string): Promise<SourceContainer> {
  const file = await open(source, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await file.read(head, 0, 12, 0);
    if (bytesRead >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return 'mov';
    if (bytesRead >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  } finally {
    await file.close();
  }
  throw new MediaProcessingError('the file is not a video that can be read', true, 'neither an ftyp box nor EBML at the start');
}

export interface InputOptions {
  /** Read at most this many seconds of input (`-t` before `-i`), whatever the header says. */
  maxSeconds?: number;
}

/**
 * Input options for ffprobe and ffmpeg: the demuxer is named (ffmpeg's own guess once opened
 * uploads with its SDP and DASH demuxers), only local files may be opened (the source is on disk,
 * S3 sources are downloaded first: MediaStore.withLocalFile), and the decoders refuse a picture
 * over the pixel cap, even one that changes size mid-stream.
 */
export function inputArgs(container: SourceContainer, source: string, o: InputOptions = {}): string[] {
  return [
    ...['-f', container, '-protocol_whitelist', 'file', '-max_pixels', String(MAX_PIXELS)],
    ...(o.maxSeconds !== undefined ? ['-t', String(o.maxSeconds)] : []),
    ...['-i', `file:${source}`],
  ];
}
