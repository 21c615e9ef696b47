import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ApiError } from '../http/errors';

// scrypt, N=2^17, r=8, p=1 (docs/decisions/0005-password-hashing-with-scrypt.md). A hash is self-describing,
// `scrypt$<log2 N>$<r>$<p>$<salt b64>$<key b64>`, so the cost can be raised later and old hashes
// still verify.

export interface ScryptParams {
  log2N: number;
  r: number;
  p: number;
  keyLength: number;
}

export const PASSWORD_PARAMS: ScryptParams = { log2N: 17, r: 8, p: 1, keyLength: 32 };

/** The production parameters at the cost a process was configured with (PASSWORD_HASH_LOG2N, tests only: server/config.ts). */
export const configuredPasswordParams = (config: { passwordLog2N: number }): ScryptParams => ({ ...PASSWORD_PARAMS, log2N: config.passwordLog2N });

const SALT_BYTES = 16;
/** 128 * N * r bytes are needed (128 MiB at the production cost); node refuses above 32 MiB by default. */
const MAX_MEM = 256 * 1024 * 1024;
/**
 * One hash holds a libuv thread for ~300 ms and 128 MiB; the pool has 4 threads that file I/O
 * (uploads, media) also needs, so at most two hashes run at a time and the rest wait their turn.
 */
export const MAX_CONCURRENT_HASHES = 2;
/**
 * At most this many hashes wait for a slot (~1.6 s of queue at two slots). A burst beyond it (logins
 * for made-up addresses, say) is answered 503 at once instead of queueing a real member behind it.
 */
export const MAX_WAITING_HASHES = 8;
/** Seconds a refused caller should wait: about the time the full queue takes to drain. */
const BUSY_RETRY_AFTER_SECONDS = 2;

export class HashQueueFull extends ApiError {
  constructor() {
    super(503, 'busy', 'The server is busy. Please try again in a moment.', { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }
}

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) {
    if (waiting.length >= MAX_WAITING_HASHES) throw new HashQueueFull();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.log2N, r: params.r, p: params.p, maxmem: MAX_MEM };
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scryptCb(password.normalize('NFC'), salt, params.keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string, params: ScryptParams = PASSWORD_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.log2N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Reads the parameters of a stored hash, or null when it is not one of ours (or absurdly expensive). */
export function parsePasswordHash(encoded: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const key = Buffer.from(parts[5] ?? '', 'base64');
  if (!log2N || !r || !p || log2N > 20 || r > 16 || p > 4 || salt.length < 8 || key.length < 16) return null;
  return { params: { log2N, r, p, keyLength: key.length }, salt, key };
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePasswordHash(encoded);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.params);
  return candidate.length === parsed.key.length && timingSafeEqual(candidate, parsed.key);
}

const dummies = new Map<string, Promise<string>>();

/**
 * What a login checks a password against when the address has no hash: one made at `params`, the
 * cost of the app's own hashes, so an unknown address takes as long as a wrong password. At the
 * production cost it is DUMMY_PASSWORD_HASH; at another (an in-process test app's) it is made once.
 */
export function dummyPasswordHash(params: ScryptParams): Promise<string> {
  const key = `${params.log2N}$${params.r}$${params.p}$${params.keyLength}`;
  if (key === `${PASSWORD_PARAMS.log2N}$${PASSWORD_PARAMS.r}$${PASSWORD_PARAMS.p}$${PASSWORD_PARAMS.keyLength}`) return Promise.resolve(DUMMY_PASSWORD_HASH);
  let made = dummies.get(key);
  if (!made) dummies.set(key, (made = hashPassword(randomBytes(24).toString('base64'), params)));
  return made;
}

/**
 * A real hash at the production cost that matches no password anyone can type: login verifies
 * against it when the e-mail is unknown, so an unknown address costs the same time as a wrong password.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$17$8$1$iCxj73aco6r1WmLi6AVfcg==$jRmTGdopvY/NmbgUrkMz3Zd4Fu0SoubV2TbkWooXv2s=';
