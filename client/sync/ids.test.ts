import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { newId } from './ids';

describe('newId', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('makes a UUID the server accepts, also without crypto.randomUUID (plain http)', () => {
    expect(z.uuid().safeParse(newId()).success).toBe(true);
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => real.getRandomValues(a) });
    const ids = new Set(Array.from({ length: 100 }, () => newId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(z.uuid().safeParse(id).success).toBe(true);
  });
});
