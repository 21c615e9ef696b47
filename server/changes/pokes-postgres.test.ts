import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES, pokePayloads } from './pokes-postgres';
import { FULL_POKE_SCOPE } from './pokes';

const decode = (p: string) => JSON.parse(p) as { i: string; s: string[]; o?: string };
const ID = '7a0f3c52-4f7e-4b43-9a55-0d7f1c2b3e4d';

describe('pokePayloads', () => {
  it('sends a small poke as one payload with the instance id and the origin', () => {
    const [only, ...rest] = pokePayloads(ID, ['feed', 'video:v1'], 'u1');
    expect(rest).toEqual([]);
    expect(decode(only!)).toEqual({ i: ID, s: ['feed', 'video:v1'], o: 'u1' });
  });

  it('splits a poke too large for one NOTIFY into payloads under the limit that carry every scope once', () => {
    const scopes = Array.from({ length: 600 }, (_, n) => `video:${String(n).padStart(36, '0')}`);
    const payloads = pokePayloads(ID, scopes, undefined);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payloads.flatMap((p) => decode(p).s)).toEqual(scopes);
    expect(payloads.every((p) => decode(p).o === undefined && decode(p).i === ID)).toBe(true);
  });

  it('counts bytes, not characters', () => {
    const scope = `user:${'é'.repeat(3000)}`;
    const payloads = pokePayloads(ID, [scope, scope], undefined);
    expect(payloads).toHaveLength(2);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
  });

  it('turns a scope that cannot fit any payload into a full poke', () => {
    const payloads = pokePayloads(ID, ['feed', `user:${'x'.repeat(MAX_PAYLOAD_BYTES)}`], 'u2');
    expect(payloads.map(decode)).toEqual([{ i: ID, s: [FULL_POKE_SCOPE], o: 'u2' }]);
  });
});
