import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, PASSWORD_PARAMS, dummyPasswordHash, hashPassword, parsePasswordHash, verifyPassword } from './password';

describe('password hashing (scrypt N=2^17, r=8, p=1)', () => {
  it('hashes with a random salt into a self-describing string and verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('pässword-1'), hashPassword('pässword-1')]);
    expect(a).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('pässword-1', a)).toBe(true);
    expect(await verifyPassword('pässword-2', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats composed and decomposed Unicode as the same password', async () => {
    const h = await hashPassword('caf\u00e9!!');
    expect(await verifyPassword('cafe\u0301!!', h)).toBe(true);
  });

  it('uses the production parameters by default, also for the dummy hash of unknown e-mails', () => {
    expect(PASSWORD_PARAMS).toEqual({ log2N: 17, r: 8, p: 1, keyLength: 32 });
    expect(parsePasswordHash(DUMMY_PASSWORD_HASH)?.params).toEqual(PASSWORD_PARAMS);
  });

  it("checks an unknown e-mail against a dummy at the cost of the app's own hashes", async () => {
    expect(await dummyPasswordHash(PASSWORD_PARAMS)).toBe(DUMMY_PASSWORD_HASH);
    const cheap = { ...PASSWORD_PARAMS, log2N: 12 };
    const dummy = await dummyPasswordHash(cheap);
    expect(parsePasswordHash(dummy)?.params).toEqual(cheap);
    expect(await dummyPasswordHash(cheap)).toBe(dummy);
    expect(await verifyPassword('', dummy)).toBe(false);
  });

  it('rejects malformed or absurdly expensive stored hashes instead of running them', async () => {
    for (const bad of [
      '',
      'plain',
      'scrypt$17$8$1$c2FsdA==',
      'bcrypt$17$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      'scrypt$30$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    ]) {
      expect(parsePasswordHash(bad)).toBeNull();
      expect(await verifyPassword('anything', bad)).toBe(false);
    }
  });
});
