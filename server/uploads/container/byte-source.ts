/**
 * Random access to a file's bytes, so the parsers can jump from box to box without reading a
 * 120 MiB upload into memory, and unit tests can feed them plain buffers.
 */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes at `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}

/** A refusal the uploader should read: the message is shown to them as is. */
export class ContainerError extends Error {
  constructor(
    readonly code: 'unsupported_format' | 'truncated_file' | 'invalid_container' | 'unknown_duration' | 'video_too_long',
    message: string,
  ) {
    super(message);
  }
}

export interface VideoInfo {
  container: 'mp4' | 'quicktime' | 'webm';
  mimeType: 'video/mp4' | 'video/quicktime' | 'video/webm';
  extension: 'mp4' | 'mov' | 'webm';
  durationMs: number;
  /** MP4/MOV only: the movie header (moov) comes before the media data, so playback can start early. */
  faststart: boolean;
}
