import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MediaProcessingError } from './errors';
import { MAX_PIXELS } from './limits';
import { inputArgs, sniffContainer } from './source-input';

const dir = mkdtempSync(join(tmpdir(), 'vidi-source-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const f = join(dir, name);
  writeFileSync(f, bytes);
  return f;
};

describe('sniffContainer', () => {
  it('finds the container the upload check found: an ftyp box is mov, the EBML magic is matroska', async () => {
    expect(await sniffContainer(file('a.mp4', Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0qt  ', 'latin1')))).toBe('mov');
    expect(await sniffContainer(file('a.webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81])))).toBe('matroska');
  });

  it('refuses anything else for good, an SDP text included', async () => {
    const e = await sniffContainer(file('a.sdp', Buffer.from('v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\n'))).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MediaProcessingError);
    expect((e as MediaProcessingError).permanent).toBe(true);
    expect(await sniffContainer(file('short', Buffer.from('ftyp'))).catch((x: unknown) => x)).toBeInstanceOf(MediaProcessingError);
  });
});

describe('inputArgs', () => {
  it('names the demuxer and whitelists only the file protocol, before -i', () => {
    expect(inputArgs('mov', '/data/media/u/v.mp4')).toEqual([
      '-f',
      'mov',
      '-protocol_whitelist',
      'file',
      '-max_pixels',
      String(MAX_PIXELS),
      '-i',
      'file:/data/media/u/v.mp4',
    ]);
  });

  it('caps the input read with -t when asked', () => {
    const args = inputArgs('matroska', '/x.webm', { maxSeconds: 120 });
    expect(args.slice(args.indexOf('-t'), args.indexOf('-t') + 2)).toEqual(['-t', '120']);
    expect(args.indexOf('-t')).toBeLessThan(args.indexOf('-i'));
    expect(args[1]).toBe('matroska');
  });
});
