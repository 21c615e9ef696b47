import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { invalidBodies, mightConform, sampleValid, type Schema } from '../lib/json-schema';
import { rowCounts, type SeededServer } from '../lib/seeded-server';
import { brokenTusRequests, type Sent } from './bad-input-tus';

interface Operation {
  method: string;
  path: string;
  secured: boolean;
  jsonBody: Schema | null;
  /** Non-JSON body types (e.g. the poster's image/*). */
  otherBodyTypes: string[];
  pathParams: string[];
  queryParams: Array<{ name: string; schema: Schema }>;
  streaming: boolean;
}

export interface BadInputReport {
  operations: number;
  requests: number;
  schemaDriven: number;
  fastCheck: number;
  byStatus: Record<string, number>;
  serverErrors: Sent[];
  /** Requests that got a 2xx: each is a malformed request the server accepted; listed for review. */
  accepted: Sent[];
  stateChanges: string[];
}

const BAD_IDS = ['..', '%2e%2e%2f', 'a'.repeat(300), "1' OR '1'='1", '%00', 'ünïcødé', '-1', '{id}', '%E0%A4%A'];
const BAD_QUERY = ['-1', '0', 'abc', '1e400', '99999999999', '', '%%', 'A'.repeat(5000), '[object Object]'];

function operations(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      const params: any[] = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        secured: Array.isArray(op.security) && op.security.length > 0,
        jsonBody: content['application/json']?.schema ?? null,
        otherBodyTypes: Object.keys(content).filter((t) => t !== 'application/json'),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        streaming: Object.keys(op.responses?.['200']?.content ?? {}).includes('text/event-stream'),
      });
    }
  }
  return ops;
}

type Send = (op: Operation, url: string, init: { body?: string | Buffer; contentType?: string; token?: string | null; oversize?: boolean }) => Promise<number>;

/** Sends one request and records its answer in `sent`; without a token given, it cycles through `tokens`. */
function sender(s: SeededServer, tokens: Array<string | null>, sent: Sent[]): Send {
  let k = 0;
  const nextToken = (op: Operation) => (op.secured ? tokens[k++ % tokens.length]! : tokens[k++ % 2 === 0 ? 3 : 0]!);
  return async (op, url, init) => {
    const headers: Record<string, string> = {};
    if (init.contentType) headers['content-type'] = init.contentType;
    const token = init.token === undefined ? nextToken(op) : init.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.oversize) return sendOversize(s, sent, op, url, headers, init.body ?? '');
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), 15_000);
    let res: Response;
    try {
      res = await fetch(`${s.server.url}${url}`, {
        method: op.method,
        headers,
        ...(init.body !== undefined && op.method !== 'GET' ? { body: typeof init.body === 'string' ? init.body : new Blob([new Uint8Array(init.body)]) } : {}),
        redirect: 'manual',
        signal: ctrl.signal,
      });
    } catch (e) {
      clearTimeout(timer);
      // A dropped connection is a failure (status 0 counts as an error).
      sent.push({ op: `${op.method} ${op.path}`, method: op.method, url, status: 0, body: `connection failed: ${(e as Error).message}` });
      return 0;
    }
    try {
      // An event stream never ends: its status is all we need.
      const body = op.streaming ? '' : await res.text();
      if (op.streaming) ctrl.abort();
      sent.push({
        op: `${op.method} ${op.path}`,
        method: op.method,
        url,
        status: res.status,
        body: body.slice(0, 300),
        request: `${init.contentType ?? ''} ${String(init.body ?? '').slice(0, 300)}`,
      });
      return res.status;
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * An oversized body on a connection of its own: refusing it, the server may close the connection
 * before the client has sent it all, which must not spoil the next request's kept-alive socket.
 */
const sendOversize = (s: SeededServer, sent: Sent[], op: Operation, url: string, headers: Record<string, string>, body: string | Buffer) =>
  new Promise<number>((ok) => {
    let answered = false;
    const req = httpRequest(`${s.server.url}${url}`, { method: op.method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        answered = true;
        sent.push({ op: `${op.method} ${op.path}`, method: op.method, url, status: res.statusCode ?? 0, body: text.slice(0, 300) });
        ok(res.statusCode ?? 0);
      });
    });
    // EPIPE/ECONNRESET while still writing: the answer (if any) arrived above; otherwise count a 413 refusal.
    req.on('error', () => {
      if (!answered) sent.push({ op: `${op.method} ${op.path}`, method: op.method, url, status: 413, body: 'closed while sending an oversized body' });
      ok(413);
    });
    req.end(body);
  });

const fillPath = (op: Operation, value?: string) => op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(value ?? randomUUID()).replace(/%25/g, '%'));
const jsonOrNothing = (op: Operation) => (op.jsonBody ? { body: '{}', contentType: 'application/json' } : {});

/** The fixed malformed requests to one operation; returns how many were sent. */
async function fixedCases(op: Operation, tokens: Array<string | null>, send: Send): Promise<number> {
  const url = fillPath(op);
  let n = 0;
  // Bad tokens on every operation; on a protected one with an otherwise valid body, which only
  // the token check may stop.
  for (const t of tokens.slice(0, 3)) {
    const body = op.secured && op.jsonBody ? { body: JSON.stringify(sampleValid(op.jsonBody)), contentType: 'application/json' } : {};
    await send(op, url, { token: t, ...body });
    n++;
  }
  if (op.jsonBody) n += await jsonBodyCases(op, op.jsonBody, url, send);
  for (const type of op.otherBodyTypes) {
    for (const body of [randomBytes(2048), Buffer.from('GIF89a'), Buffer.alloc(0)]) await send(op, url, { body, contentType: type });
    await send(op, url, { body: randomBytes(1024), contentType: 'application/octet-stream' });
    n += 4;
  }
  for (const bad of op.pathParams.length ? BAD_IDS : []) {
    await send(op, fillPath(op, bad), jsonOrNothing(op));
    n++;
  }
  for (const q of op.queryParams) {
    for (const bad of BAD_QUERY.filter((v) => !mightConform(q.schema, v))) {
      await send(op, `${url}?${q.name}=${encodeURIComponent(bad)}`, {});
      n++;
    }
  }
  return n;
}

async function jsonBodyCases(op: Operation, schema: Schema, url: string, send: Send): Promise<number> {
  let n = 0;
  for (const b of invalidBodies(schema)) {
    await send(op, url, { body: JSON.stringify(b), contentType: 'application/json' });
    n++;
  }
  const raw: Array<[string, string]> = [
    ['{"unterminated": ', 'application/json'],
    ['not json at all', 'application/json'],
    [JSON.stringify(sampleValid(schema)), 'text/plain'],
    [JSON.stringify(sampleValid(schema)), 'application/x-www-form-urlencoded'],
    ['', 'application/json'],
  ];
  for (const [body, contentType] of raw) {
    await send(op, url, { body, contentType });
    n++;
  }
  await send(op, url, { body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), contentType: 'application/json', oversize: true });
  return n + 1;
}

/** fast-check runs against one operation; returns how many requests they sent. */
async function fuzzedCases(op: Operation, send: Send, o: { fastCheckRuns: number; seed?: number }): Promise<number> {
  let n = 0;
  const seed = o.seed ?? 42;
  if (op.jsonBody) {
    const schema = op.jsonBody;
    // Sample, then keep what the schema surely refuses (a filtered arbitrary would spin forever
    // on a schema that accepts almost anything).
    const values = fc
      .sample(fc.jsonValue(), { numRuns: o.fastCheckRuns * 10, seed })
      .filter((v) => !mightConform(schema, v))
      .slice(0, o.fastCheckRuns);
    for (const v of values) {
      n++;
      await send(op, fillPath(op), { body: JSON.stringify(v), contentType: 'application/json' });
    }
  }
  if (op.pathParams.length) {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }), async (seg) => {
        n++;
        return (await send(op, fillPath(op, seg), jsonOrNothing(op))) < 500;
      }),
      { numRuns: o.fastCheckRuns, seed },
    );
  }
  if (op.queryParams.length && op.method === 'GET') {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...op.queryParams.map((q) => q.name)), fc.string({ maxLength: 200, unit: 'binary' }), async (name, value) => {
        n++;
        return (await send(op, `${fillPath(op)}?${name}=${encodeURIComponent(value)}`, {})) < 500;
      }),
      { numRuns: o.fastCheckRuns, seed },
    );
  }
  return n;
}

/**
 * Malformed requests to every operation of /api/openapi.json: schema-driven invalid bodies, bad
 * path ids and query values, wrong content types, broken JSON, oversized bodies, bad tokens, and a
 * fast-check run of arbitrary values the schema surely refuses; plus broken tus requests to /files
 * (not in the document). Nothing may answer 5xx, and the
 * row count of every table must be the same afterwards.
 */
export async function fuzzEveryOperation(s: SeededServer, o: { fastCheckRuns: number; seed?: number }): Promise<BadInputReport> {
  const admin = s.users[s.users.length - 1]!;
  const member = s.users[0]!;
  {
    const db = new Database(s.dbPath);
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE profiles SET is_admin = 1 WHERE id = ?').run(admin);
    db.close();
  }
  const tokens: Array<string | null> = [null, 'not-a-token', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', await s.token(member), await s.token(admin)];
  const doc = await (await fetch(`${s.server.url}/api/openapi.json`)).json();
  const ops = operations(doc);
  const before = s.read(rowCounts);
  const sent: Sent[] = [];
  const send = sender(s, tokens, sent);
  let schemaDriven = 0;
  for (const op of ops) schemaDriven += await fixedCases(op, tokens, send);
  // fast-check: arbitrary JSON values the schema refuses, arbitrary path segments and query strings.
  let fastCheck = 0;
  for (const op of ops) fastCheck += await fuzzedCases(op, send, o);
  schemaDriven += await brokenTusRequests(s, tokens[3]!, sent);

  const after = s.read(rowCounts);
  const stateChanges = Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} -> ${after[t]}`);
  const byStatus: Record<string, number> = {};
  for (const r of sent) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
  return {
    operations: ops.length,
    requests: sent.length,
    schemaDriven,
    fastCheck,
    byStatus,
    serverErrors: sent.filter((r) => r.status >= 500 || r.status === 0),
    accepted: sent.filter((r) => r.status >= 200 && r.status < 300),
    stateChanges,
  };
}
