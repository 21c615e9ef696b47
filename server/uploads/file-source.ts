import { open, type FileHandle } from 'node:fs/promises';
import type { ByteSource } from './container/byte-source';

/** A ByteSource over a file on disk (positional reads; nothing is loaded whole). */
export async function openFileSource(path: string): Promise<ByteSource & { close(): Promise<void> }> {
  const fh: FileHandle = await open(path, 'r');
  const { size } = await fh.stat();
  return {
    size,
    async read(offset, length) {
      const len = Math.max(0, Math.min(length, size - offset));
      const buf = Buffer.alloc(len);
      if (len === 0) return buf;
      const { bytesRead } = await fh.read(buf, 0, len, offset);
      return buf.subarray(0, bytesRead);
    },
    close: () => fh.close(),
  };
}
