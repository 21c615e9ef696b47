import { describe, expect, it } from 'vitest';
import { sniffImage } from './image-type';

describe('poster image sniffing', () => {
  it('recognises JPEG, PNG and WebP by their first bytes', () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))?.mimeType).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))?.extension).toBe('png');
    expect(sniffImage(Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1'))?.mimeType).toBe('image/webp');
  });

  it('refuses anything else, including a GIF, SVG text and a RIFF that is not WebP', () => {
    expect(sniffImage(Buffer.from('GIF89a......'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\x10\0\0\0WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});
