import type { ServerProcess } from '../helpers/server-process';

/** A JSON call to the test server, with a member's access token or none; the body parsed when there is one. */
export type ServerApi = (method: string, path: string, token?: string, body?: unknown) => Promise<{ status: number; json: any }>;

export function serverApi(server: Pick<ServerProcess, 'url'>): ServerApi {
  return async (method, path, token, body) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };
}
