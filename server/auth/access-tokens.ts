import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { SigningKeys } from './keys';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** How far in the future an `iat` may lie (clock steps); anything later was not issued by us. */
export const ISSUED_AT_LEEWAY_SECONDS = 5;
const AUDIENCE = 'vidi';

export interface AccessClaims {
  userId: string;
  /** The session (refresh-token family) the token was issued for; absent on tokens issued without one. */
  sessionId: string | undefined;
}

export interface AccessTokens {
  issue(userId: string, sessionId?: string): Promise<{ token: string; expiresAt: number }>;
  /** Returns the user id, or null for any token that is forged, expired, of another audience or algorithm. */
  verify(token: string): Promise<string | null>;
  /** As verify, with the session the token belongs to. */
  verifyClaims(token: string): Promise<AccessClaims | null>;
}

/** How many verified tokens to remember; a member's app reuses one token for up to 15 minutes. */
const VERIFIED_CACHE_SIZE = 10_000;

interface Verified extends AccessClaims {
  exp: number;
}

/**
 * jose checks the signature, exp and the claims' presence; a token must also have been issued as
 * ours are: not in the future, and for no longer than our lifetime (a leaked key aside, this
 * catches tokens minted by a buggy or older issuer with a long life).
 */
function claimsOf(payload: Record<string, unknown>, nowSeconds: number): Verified | null {
  const { sub, exp, iat, sid } = payload;
  if (typeof sub !== 'string' || sub.length === 0 || typeof exp !== 'number' || typeof iat !== 'number') return null;
  if (iat > nowSeconds + ISSUED_AT_LEEWAY_SECONDS || exp - iat > ACCESS_TOKEN_TTL_SECONDS) return null;
  if (sid !== undefined && (typeof sid !== 'string' || sid.length === 0)) return null;
  return { userId: sub, sessionId: sid, exp };
}

export function createAccessTokens(keys: SigningKeys, issuer: string, now: () => number): AccessTokens {
  // An EdDSA signature check costs more than the rest of a feed request: remember tokens already
  // verified (exact string, so any change to it misses) until they expire. Suspension and ended
  // sessions are still checked on every request by requireUser, which reads the profile.
  const verified = new Map<string, Verified>();
  const remember = (token: string, claims: Verified) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, claims);
  };
  const verifyClaims = async (token: string): Promise<AccessClaims | null> => {
    const hit = verified.get(token);
    if (hit) {
      if (hit.exp * 1000 > now()) return { userId: hit.userId, sessionId: hit.sessionId };
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
      const claims = claimsOf(payload, Math.floor(now() / 1000));
      if (!claims) return null;
      remember(token, claims);
      return { userId: claims.userId, sessionId: claims.sessionId };
    } catch (e) {
      if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
      throw e;
    }
  };
  return {
    async issue(userId, sessionId) {
      const iat = Math.floor(now() / 1000);
      const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
      const token = await new SignJWT(sessionId ? { sid: sessionId } : {})
        .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
      return { token, expiresAt: exp };
    },
    verifyClaims,
    async verify(token) {
      return (await verifyClaims(token))?.userId ?? null;
    },
  };
}
