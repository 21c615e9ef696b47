import { execFileSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/**
 * A real MP4 of exactly `bytes` bytes: a short ffmpeg clip followed by a top-level `free` box of
 * random bytes (valid MP4, skipped by players and by the server's container check). Random, so
 * nothing on the way can compress it; big, without making ffmpeg encode 100 MiB of video.
 */
export function paddedMp4(file: string, bytes: number): { file: string; size: number; sha256: string } {
  if (!existsSync(file) || statSync(file).size !== bytes) {
    const clip = `${file}.clip.mp4`;
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x284:rate=10',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      clip,
    ]);
    const head = readFileSync(clip);
    const pad = bytes - head.length;
    if (pad < 8) throw new Error(`paddedMp4: ${bytes} bytes is smaller than the clip (${head.length})`);
    const fd = openSync(file, 'w');
    try {
      writeSync(fd, head);
      const box = Buffer.alloc(8);
      box.writeUInt32BE(pad, 0);
      box.write('free', 4, 'latin1');
      writeSync(fd, box);
      const block = Buffer.alloc(1 << 20);
      for (let left = pad - 8; left > 0; left -= block.length) {
        randomFillSync(block);
        writeSync(fd, block, 0, Math.min(block.length, left));
      }
    } finally {
      closeSync(fd);
    }
  }
  return { file, size: statSync(file).size, sha256: sha256File(file) };
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
