import { randomUUID } from 'node:crypto';
import type { SeededServer } from '../lib/seeded-server';

/** One request of the bad-input run and its answer. */
export interface Sent {
  op: string;
  method: string;
  url: string;
  status: number;
  body: string;
  /** The start of what was sent, to reproduce a finding. */
  request?: string;
}

/**
 * tus is not in the OpenAPI document (it is its own protocol): a fixed set of broken requests to
 * /files, their answers recorded in `sent`; returns how many were sent.
 */
export async function brokenTusRequests(s: SeededServer, memberToken: string, sent: Sent[]): Promise<number> {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const goodMeta = `videoId ${b64(randomUUID())},title ${b64('Fuzz')},filename ${b64('f.mp4')},filetype ${b64('video/mp4')}`;
  const tusCases: Array<{ method: string; path: string; headers: Record<string, string>; body?: string }> = [
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': '-1', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': '999999999999', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': 'abc', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': '0', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': 'title !!!not-base64' } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': `videoId ${b64(randomUUID())}` } },
    {
      method: 'POST',
      path: '/files/',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': `videoId ${b64('not-a-uuid')},title ${b64('x')}` },
    },
    {
      method: 'POST',
      path: '/files/',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': `videoId ${b64(randomUUID())},title ${b64('x')},filetype ${b64('image/png')}`,
      },
    },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'upload-length': '100', 'upload-metadata': goodMeta } },
    { method: 'POST', path: '/files/', headers: { 'tus-resumable': '0.2.2', 'upload-length': '100', 'upload-metadata': goodMeta } },
    {
      method: 'PATCH',
      path: `/files/${'0'.repeat(32)}`,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'xxxx',
    },
    {
      method: 'PATCH',
      path: '/files/..%2F..%2Fetc%2Fpasswd',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'xxxx',
    },
    {
      method: 'PATCH',
      path: `/files/${'0'.repeat(32)}`,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '-5', 'content-type': 'text/plain' },
      body: 'xxxx',
    },
    { method: 'HEAD', path: '/files/%00', headers: { 'tus-resumable': '1.0.0' } },
    { method: 'DELETE', path: `/files/${'f'.repeat(32)}`, headers: { 'tus-resumable': '1.0.0' } },
  ];
  for (const [i, c] of tusCases.entries()) {
    // Every third case without the token, the rest as a signed-in member.
    const headers = i % 3 === 2 ? c.headers : { ...c.headers, authorization: `Bearer ${memberToken}` };
    let status = 0;
    let text = '';
    try {
      const res = await fetch(`${s.server.url}${c.path}`, { method: c.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) });
      status = res.status;
      text = await res.text();
    } catch (e) {
      text = `connection failed: ${(e as Error).message}`;
    }
    sent.push({
      op: `${c.method} /files (tus)`,
      method: c.method,
      url: c.path,
      status,
      body: text.slice(0, 300),
      request: JSON.stringify(c.headers).slice(0, 300),
    });
  }

  return tusCases.length;
}
