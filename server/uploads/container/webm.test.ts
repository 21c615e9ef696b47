import { describe, expect, it } from 'vitest';
import { bufferSource, ContainerError } from './byte-source';
import { inspectWebm, readVint } from './webm';
import { inspectVideo } from './inspect';

function idBytes(id: number): Buffer {
  const out: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return Buffer.from(out);
}

/** An element with an 8-byte size field (always valid EBML). */
function el(id: number, ...payload: Uint8Array[]): Buffer {
  const body = Buffer.concat(payload);
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length), 0);
  size[0] = 0x01;
  return Buffer.concat([idBytes(id), size, body]);
}

const unknownSize = (id: number, ...payload: Uint8Array[]) =>
  Buffer.concat([idBytes(id), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), ...payload]);

const uint = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const f64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
};
const f32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatBE(n);
  return b;
};

const header = (docType: string) => el(0x1a45dfa3, el(0x4286, Buffer.from([1])), el(0x4282, Buffer.from(docType, 'latin1')));
const info = (...children: Buffer[]) => el(0x1549a966, ...children);
const cluster = el(0x1f43b675, Buffer.alloc(50));

async function refusal(p: Promise<unknown>): Promise<ContainerError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ContainerError);
  return e as ContainerError;
}

describe('WebM inspection', () => {
  it('reads Duration scaled by the default TimecodeScale', async () => {
    const src = bufferSource(Buffer.concat([header('webm'), el(0x18538067, el(0x114d9b74, Buffer.alloc(10)), info(el(0x4489, f64(2500))), cluster)]));
    expect(await inspectWebm(src)).toMatchObject({ container: 'webm', mimeType: 'video/webm', durationMs: 2500 });
  });

  it('honours a non-default TimecodeScale and a 4-byte float', async () => {
    const src = bufferSource(Buffer.concat([header('webm'), el(0x18538067, info(el(0x2ad7b1, uint(10_000_000)), el(0x4489, f32(600))), cluster)]));
    expect((await inspectVideo(src)).durationMs).toBe(6000);
  });

  it('accepts a Segment of unknown size (live recording) when Info has a duration', async () => {
    const src = bufferSource(Buffer.concat([header('webm'), unknownSize(0x18538067, info(el(0x4489, f64(1000))), cluster)]));
    expect((await inspectWebm(src)).durationMs).toBe(1000);
  });

  it('refuses EBML that is not WebM', async () => {
    const e = await refusal(inspectVideo(bufferSource(Buffer.concat([header('matroska'), el(0x18538067, info(el(0x4489, f64(1000))))]))));
    expect(e.message).toMatch(/"matroska", not a WebM/);
  });

  it('refuses a WebM without a recorded duration', async () => {
    const e = await refusal(inspectWebm(bufferSource(Buffer.concat([header('webm'), unknownSize(0x18538067, info(el(0x2ad7b1, uint(1_000_000))), cluster)]))));
    expect(e.code).toBe('unknown_duration');
  });

  it('refuses a truncated WebM', async () => {
    const whole = Buffer.concat([header('webm'), el(0x18538067, info(el(0x4489, f64(1000))), cluster)]);
    expect((await refusal(inspectWebm(bufferSource(whole.subarray(0, whole.length - 20))))).code).toBe('truncated_file');
    expect((await refusal(inspectWebm(bufferSource(whole.subarray(0, 6))))).code).toBe('truncated_file');
  });

  it('reads variable-length integers with and without the marker bit', () => {
    expect(readVint(Buffer.from([0x81]), 0, false)).toEqual({ value: 1, length: 1, unknown: false });
    expect(readVint(Buffer.from([0x40, 0x02]), 0, false)).toEqual({ value: 2, length: 2, unknown: false });
    expect(readVint(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), 0, true)?.value).toBe(0x1a45dfa3);
    expect(readVint(Buffer.from([0xff]), 0, false)?.unknown).toBe(true);
    expect(readVint(Buffer.from([0x00]), 0, false)).toBeNull();
    expect(readVint(Buffer.from([0x40]), 0, false)).toBeNull();
  });
});
