import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSigningKeys } from './keys';
import { ACCESS_TOKEN_TTL_SECONDS, createAccessTokens } from './access-tokens';

describe('access tokens', () => {
  it('verifies a token again from memory, and still refuses it once expired', async () => {
    let clock = Date.now();
    const keys = await loadSigningKeys(mkdtempSync(join(tmpdir(), 'vidi-keys-')), undefined);
    const tokens = createAccessTokens(keys, 'http://issuer.test', () => clock);
    const { token } = await tokens.issue('user-1');
    expect(await tokens.verify(token)).toBe('user-1');
    expect(await tokens.verify(token)).toBe('user-1');
    clock += (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000;
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token with one character changed even after the original was verified', async () => {
    const keys = await loadSigningKeys(mkdtempSync(join(tmpdir(), 'vidi-keys-')), undefined);
    const tokens = createAccessTokens(keys, 'http://issuer.test', Date.now);
    const { token } = await tokens.issue('user-2');
    expect(await tokens.verify(token)).toBe('user-2');
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const forged = token.slice(0, -2) + last + token.slice(-1);
    expect(await tokens.verify(forged)).toBeNull();
  });

  it('refuses a token from another issuer', async () => {
    const keys = await loadSigningKeys(mkdtempSync(join(tmpdir(), 'vidi-keys-')), undefined);
    const a = createAccessTokens(keys, 'http://a.test', Date.now);
    const b = createAccessTokens(keys, 'http://b.test', Date.now);
    const { token } = await a.issue('user-3');
    expect(await b.verify(token)).toBeNull();
  });

  it('carries the session id (sid) when issued for a session, and none otherwise', async () => {
    const keys = await loadSigningKeys(mkdtempSync(join(tmpdir(), 'vidi-keys-')), undefined);
    const tokens = createAccessTokens(keys, 'http://issuer.test', Date.now);
    const withSession = await tokens.issue('user-4', 'family-1');
    expect(await tokens.verifyClaims(withSession.token)).toEqual({ userId: 'user-4', sessionId: 'family-1' });
    expect(await tokens.verifyClaims(withSession.token)).toEqual({ userId: 'user-4', sessionId: 'family-1' });
    const without = await tokens.issue('user-4');
    expect(await tokens.verifyClaims(without.token)).toEqual({ userId: 'user-4', sessionId: undefined });
  });
});
