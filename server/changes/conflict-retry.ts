import { ApiError } from '../http/errors';

/** PostgreSQL's answers that mean "another transaction was in the way; the same work may pass now". */
export function isTransactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // 40P01 deadlock_detected (the server picked this transaction to undo), 40001 serialization_failure.
  return code === '40P01' || code === '40001';
}

const ATTEMPTS = 5;
const BASE_MS = 10;

/**
 * Runs a whole transaction again when it lost a deadlock or a serialization check, after a random
 * pause (10, 20, 40, 80 ms at most: two pushes that deadlocked do not collide again in step). The
 * transaction was rolled back: nothing of it stays, and nothing ran after it (pokes, file removals
 * wait for the commit). After the last attempt the caller gets 503 with Retry-After: the client keeps
 * its queue and sends it again.
 */
export async function retryTransactionConflicts<T>(run: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isTransactionConflict(err)) throw err;
      if (attempt >= attempts) {
        throw new ApiError(503, 'busy', 'The server is busy. Your changes are kept; they are sent again shortly.', { 'Retry-After': '1' });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * BASE_MS * 2 ** (attempt - 1)));
    }
  }
}
