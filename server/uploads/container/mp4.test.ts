import { describe, expect, it } from 'vitest';
import { bufferSource, ContainerError } from './byte-source';
import { inspectMp4, parseMvhd } from './mp4';
import { checkVideo, inspectVideo } from './inspect';

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

function largeBox(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write(type, 4, 'latin1');
  head.writeBigUInt64BE(BigInt(16 + body.length), 8);
  return Buffer.concat([head, body]);
}

const ftyp = (brand = 'isom') => box('ftyp', Buffer.from(`${brand}\0\0\x02\0isomiso2`, 'latin1'));

function mvhdV0(timescale: number, duration: number): Uint8Array {
  const p = Buffer.alloc(100);
  p.writeUInt32BE(timescale, 12);
  p.writeUInt32BE(duration, 16);
  return box('mvhd', p);
}

function mvhdV1(timescale: number, duration: bigint): Uint8Array {
  const p = Buffer.alloc(112);
  p[0] = 1;
  p.writeUInt32BE(timescale, 20);
  p.writeBigUInt64BE(duration, 24);
  return box('mvhd', p);
}

const mdat = (n = 64) => box('mdat', Buffer.alloc(n, 7));
const file = (...parts: Uint8Array[]) => bufferSource(Buffer.concat(parts));

async function refusal(p: Promise<unknown>): Promise<ContainerError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ContainerError);
  return e as ContainerError;
}

describe('MP4 / QuickTime inspection', () => {
  it('reads the duration of a faststart file (moov before mdat)', async () => {
    const info = await inspectMp4(file(ftyp(), box('moov', mvhdV0(1000, 4500)), mdat()));
    expect(info).toMatchObject({ container: 'mp4', mimeType: 'video/mp4', durationMs: 4500, faststart: true });
  });

  it('finds moov at the end of the file, after mdat', async () => {
    const info = await inspectMp4(file(ftyp(), mdat(500), box('free'), box('moov', box('trak'), mvhdV0(600, 600 * 90))));
    expect(info.durationMs).toBe(90_000);
    expect(info.faststart).toBe(false);
  });

  it('reads version 1 (64-bit) movie headers', async () => {
    const info = await inspectMp4(file(ftyp(), box('moov', mvhdV1(90_000, 90_000n * 61n)), mdat()));
    expect(info.durationMs).toBe(61_000);
  });

  it('follows 64-bit box sizes and size-0 boxes that run to the end', async () => {
    const sizeZeroMdat = Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.from('mdat', 'latin1'), Buffer.alloc(40)]);
    const info = await inspectMp4(file(ftyp(), largeBox('moov', mvhdV0(1000, 2000)), largeBox('mdat', Buffer.alloc(30)), sizeZeroMdat));
    expect(info.durationMs).toBe(2000);
  });

  it('recognises QuickTime by its major brand', async () => {
    const info = await inspectVideo(file(ftyp('qt  '), box('moov', mvhdV0(600, 1200)), mdat()));
    expect(info).toMatchObject({ container: 'quicktime', mimeType: 'video/quicktime', extension: 'mov' });
  });

  it('reads the fragment duration (mehd) when mvhd says 0', async () => {
    const mehd = box('mehd', Buffer.from([0, 0, 0, 0, 0, 0, 0x0b, 0xb8]));
    const info = await inspectMp4(file(ftyp(), box('moov', mvhdV0(1000, 0), box('mvex', mehd)), box('moof'), mdat()));
    expect(info.durationMs).toBe(3000);
  });

  it('refuses a timescale of 0', async () => {
    const e = await refusal(inspectMp4(file(ftyp(), box('moov', mvhdV0(0, 100)), mdat())));
    expect(e.message).toMatch(/time scale is 0/);
  });

  it('refuses a box claiming 2^64-1 bytes', async () => {
    const head = Buffer.alloc(16);
    head.writeUInt32BE(1, 0);
    head.write('mdat', 4, 'latin1');
    head.writeBigUInt64BE(0xffffffffffffffffn, 8);
    const e = await refusal(inspectMp4(file(ftyp(), head, Buffer.alloc(100))));
    expect(e.code).toBe('truncated_file');
  });

  it('refuses a truncated file even when moov came first', async () => {
    const whole = Buffer.concat([ftyp(), box('moov', mvhdV0(1000, 1000)), mdat(1000)]);
    const e = await refusal(inspectMp4(bufferSource(whole.subarray(0, whole.length - 10))));
    expect(e.code).toBe('truncated_file');
  });

  it('refuses a file without moov, without mvhd, or with an unknown duration', async () => {
    expect((await refusal(inspectMp4(file(ftyp(), mdat())))).message).toMatch(/moov/);
    expect((await refusal(inspectMp4(file(ftyp(), box('moov', box('trak')), mdat())))).message).toMatch(/mvhd/);
    expect((await refusal(inspectMp4(file(ftyp(), box('moov', mvhdV0(1000, 0xffffffff)), mdat())))).code).toBe('unknown_duration');
  });

  it('refuses boxes smaller than their own header', async () => {
    const bad = Buffer.alloc(8);
    bad.writeUInt32BE(4, 0);
    bad.write('moov', 4, 'latin1');
    expect((await refusal(inspectMp4(file(ftyp(), bad)))).code).toBe('invalid_container');
  });

  it('refuses text and unknown formats by content, whatever the name', async () => {
    const e = await refusal(inspectVideo(bufferSource(Buffer.from('hello, this is not a video at all'))));
    expect(e.code).toBe('unsupported_format');
  });

  it('accepts exactly 120 s and refuses 120.001 s', async () => {
    expect((await checkVideo(file(ftyp(), box('moov', mvhdV0(1000, 120_000)), mdat()))).durationMs).toBe(120_000);
    const e = await refusal(checkVideo(file(ftyp(), box('moov', mvhdV0(1000, 120_001)), mdat())));
    expect(e.code).toBe('video_too_long');
  });

  it('accepts the brands phones, cameras, browsers and our client record', async () => {
    for (const brand of ['isom', 'iso2', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'qt  ', 'M4V ', '3gp4', '3gp5', '3g2a', 'XAVC']) {
      expect((await inspectMp4(file(ftyp(brand), box('moov', mvhdV0(1000, 2000)), mdat()))).durationMs, brand).toBe(2000);
    }
  });

  it('refuses odd brands as not a supported video: images, audio, DASH segments, anything made up', async () => {
    for (const brand of ['heic', 'avif', 'mif1', 'M4A ', 'dash', 'crx ', 'ISOM', 'xxxx', '\0\0\0\0']) {
      const e = await refusal(inspectVideo(file(ftyp(brand), box('moov', mvhdV0(1000, 2000)), mdat())));
      expect([e.code, e.message], brand).toEqual([
        'unsupported_format',
        expect.stringMatching(/^The file is not a supported video \(its MP4 type "[^"]+" is not a video format\)\.$/),
      ]);
    }
  });

  it('parses mvhd payloads of both versions and refuses unknown versions', () => {
    const v0 = Buffer.alloc(100);
    v0.writeUInt32BE(25, 12);
    v0.writeUInt32BE(50, 16);
    expect(parseMvhd(v0)).toEqual({ timescale: 25, duration: 50n });
    const v2 = Buffer.alloc(100);
    v2[0] = 2;
    expect(() => parseMvhd(v2)).toThrow(ContainerError);
  });
});
