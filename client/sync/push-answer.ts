import type { PushResponse } from '#sync/protocol/messages';
import { TemporaryError } from './sync-transport';

type Result = PushResponse['results'][number];
const STATUSES = new Set<unknown>(['applied', 'duplicate', 'rejected']);

function isResult(v: unknown): v is Result {
  const r = v as Partial<Result> | null;
  if (!r || typeof r !== 'object' || !Number.isInteger(r.id) || !STATUSES.has(r.status)) return false;
  const e = r.error as { code?: unknown; message?: unknown } | undefined;
  return e === undefined || (typeof e.code === 'string' && typeof e.message === 'string');
}

/**
 * The push answer as the service worker reads it (docs/sync.md, "Sync while closed"): the fields
 * Pusher acts on, checked by hand so the worker's bundle carries no zod. The page reads the same
 * answer with PushResponseSchema (sync/protocol/messages.ts). An answer of another shape is
 * treated as a failed round: nothing is marked, the browser retries the sync later.
 */
export function readPushAnswer(raw: unknown): PushResponse {
  const a = raw as Partial<PushResponse> | null;
  if (a && Array.isArray(a.results) && a.results.every(isResult) && Number.isInteger(a.last_mutation_id)) return a as PushResponse;
  throw new TemporaryError('the push answer has an unexpected shape');
}
