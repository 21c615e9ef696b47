import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressFolder } from './precompress-plugin';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressFolder', () => {
  it('writes brotli and gzip copies of text files that decode to the original, and only of those', () => {
    dir = mkdtempSync(join(tmpdir(), 'vidi-precompress-'));
    mkdirSync(join(dir, 'assets'));
    const js = 'export const greeting = "hello";\n'.repeat(100);
    writeFileSync(join(dir, 'assets/app-abc.js'), js);
    writeFileSync(join(dir, 'assets/app-abc.js.map'), js);
    writeFileSync(join(dir, 'small.css'), 'a{color:red}');
    writeFileSync(join(dir, 'icon.png'), Buffer.alloc(4096, 7));

    expect(precompressFolder(dir)).toBe(1);

    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/app-abc.js.br'))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(join(dir, 'assets/app-abc.js.gz'))).toString()).toBe(js);
    for (const skipped of ['assets/app-abc.js.map.br', 'small.css.br', 'small.css.gz', 'icon.png.br', 'icon.png.gz'])
      expect(existsSync(join(dir, skipped)), skipped).toBe(false);
  });

  it('keeps no copy that would be larger than the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'vidi-precompress-'));
    // Random bytes do not compress: each format's framing makes the copy a few bytes larger.
    writeFileSync(join(dir, 'noise.txt'), randomBytes(3000));
    precompressFolder(dir);
    expect(existsSync(join(dir, 'noise.txt.br'))).toBe(false);
    expect(existsSync(join(dir, 'noise.txt.gz'))).toBe(false);
  });
});
