import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { SigningKeys } from './keys';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'vidi';

export interface AccessTokens {
  issue(userId: string): Promise<{ token: string; expiresAt: number }>;
  /** Returns the user id, or null for any token that is forged, expired, of another audience or algorithm. */
  verify(token: string): Promise<string | null>;
}

export function createAccessTokens(keys: SigningKeys, issuer: string, now: () => number): AccessTokens {
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
        return typeof payload.sub === 'string' && payload.sub.length > 0 ? payload.sub : null;
      } catch (e) {
        if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
        throw e;
      }
    },
  };
}
