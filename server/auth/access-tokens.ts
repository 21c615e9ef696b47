import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { SigningKeys } from './keys';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'vidi';

export interface AccessTokens {
  issue(userId: string): Promise<{ token: string; expiresAt: number }>;
  /** Returns the user id, or null for any token that is forged, expired, of another audience or algorithm. */
  verify(token: string): Promise<string | null>;
}

/** How many verified tokens to remember; a member's app reuses one token for up to 15 minutes. */
const VERIFIED_CACHE_SIZE = 10_000;

export function createAccessTokens(keys: SigningKeys, issuer: string, now: () => number): AccessTokens {
  // An EdDSA signature check costs more than the rest of a feed request: remember tokens already
  // verified (exact string, so any change to it misses) until they expire. Suspension is still
  // checked on every request by requireUser, which reads the profile.
  const verified = new Map<string, { sub: string; exp: number }>();
  const remember = (token: string, sub: string, exp: number) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, { sub, exp });
  };
  return {
    async issue(userId) {
      const iat = Math.floor(now() / 1000);
      const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
      return { token, expiresAt: exp };
    },
    async verify(token) {
      const hit = verified.get(token);
      if (hit) {
        if (hit.exp * 1000 > now()) return hit.sub;
        verified.delete(token);
        return null;
      }
      try {
        // jose checks exp only when present and accepts any algorithm the key allows:
        // pin the algorithm and require every claim we rely on.
        const { payload } = await jwtVerify(token, keys.publicKey, {
          algorithms: ['EdDSA'],
          issuer,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub', 'iss', 'aud'],
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0 || typeof payload.exp !== 'number') return null;
        remember(token, payload.sub, payload.exp);
        return payload.sub;
      } catch (e) {
        if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
        throw e;
      }
    },
  };
}
