import { request } from 'node:http';
import type { ServerProcess } from '../helpers/server-process';
import { lastMailTo } from '../helpers/mail-sink';

// A plain node:http client for the accounts API over real HTTP: each request on its own
// connection, from a chosen loopback source address (a distinct client IP for per-IP limits).

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

export function http(
  server: ServerProcess,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string; from?: string; forwardedFor?: string } = {},
): Promise<HttpResult> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        // Linux routes all of 127.0.0.0/8 to loopback, so a second client address is free to use.
        localAddress: opts.from ?? '127.0.0.1',
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const refreshCookie = (r: HttpResult) => {
  const all = r.headers['set-cookie'] ?? [];
  return (Array.isArray(all) ? all : [all]).find((c) => c.startsWith('vidi_refresh='));
};

/** Signs up over HTTP and opens the mailed verification link: a member that can sign in. */
export async function signUpVerifiedHttp(server: ServerProcess, email: string, password: string): Promise<void> {
  const res = await http(server, 'POST', '/api/auth/signup', { body: { name: 'Member', email, password } });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status}`);
  const link = lastMailTo(server.dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
  if (!link) throw new Error(`no verification link for ${email}`);
  const url = new URL(link);
  await http(server, 'GET', url.pathname + url.search);
}
