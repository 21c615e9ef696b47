/** What an auth call answered: parsed JSON (or null) and the status. A thrown error means no answer at all. */
export interface JsonAnswer {
  status: number;
  ok: boolean;
  data: unknown;
}

export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached.', { cause });
    this.name = 'NetworkError';
  }
}

export async function requestJson(method: string, path: string, body?: unknown, token?: string | null): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (e) {
    throw new NetworkError(e);
  }
  const data: unknown = await res.json().catch(() => null);
  return { status: res.status, ok: res.ok, data };
}

/** The API's error body {"error": {"code", "message", ...}}; auth answers may add `user_id`. */
export function errorOf(data: unknown): { code: string; message: string; userId: string | null } {
  const body = (data ?? {}) as { error?: { code?: unknown; message?: unknown; user_id?: unknown }; user_id?: unknown };
  const err = body.error ?? {};
  const userId = typeof err.user_id === 'string' ? err.user_id : typeof body.user_id === 'string' ? body.user_id : null;
  return {
    code: typeof err.code === 'string' ? err.code : 'unknown',
    message: typeof err.message === 'string' ? err.message : 'Something went wrong',
    userId,
  };
}
