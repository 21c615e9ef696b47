import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { SignJWT, generateKeyPair, exportSPKI } from 'jose';
import { createTestApp, call, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import {
  callOperation,
  exampleFor,
  isErrorBody,
  listOperations,
  wrongTypeFor,
  type JsonSchema,
  type Operation,
  type OperationOutcome,
} from '../helpers/openapi-operations';
import { loadSigningKeys } from '#server/auth/keys';

// Bad input: each of these gets a 4xx JSON error of the fixed shape and changes
// nothing; no request can produce a 5xx. Walks every operation with a JSON body in the OpenAPI
// document, so operations added later are covered too.

const TEN_MB = 10 * 1024 * 1024;
const CONTROL = 'ok\u0000\u0007\u001b[2J\u007f';

/** Rows per table (Kysely's own migration tables left out), on either engine. */
async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const db = t.deps.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const out: Record<string, number> = {};
  for (const { name } of await db.introspection.getTables()) {
    // A refused request still counts against its rate limit (in memory on SQLite, a row on PostgreSQL).
    if (name === 'rate_limits') continue;
    const row = await db
      .selectFrom(name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[name] = Number(row.n);
  }
  return out;
}

function isObjectSchema(s: JsonSchema | undefined): s is JsonSchema & { properties: Record<string, JsonSchema> } {
  return !!s?.properties && Object.keys(s.properties).length > 0;
}

/** The bad bodies for one operation: [label, raw body, content type?]. */
function badBodies(schema: JsonSchema | undefined): Array<[string, string, string?]> {
  const valid = exampleFor(schema) as Record<string, unknown>;
  const cases: Array<[string, string, string?]> = [
    ['malformed JSON', '{"name": "x", '],
    ['a JSON array instead of an object', '[]'],
    ['a JSON string instead of an object', '"just a string"'],
    ['null', 'null'],
    ['unknown field', JSON.stringify({ ...valid, unexpected_field: 'surprise' })],
    ['__proto__ key', '{"__proto__": {"isAdmin": true, "is_admin": true}}'],
    ['constructor.prototype key', JSON.stringify({ ...valid, constructor: { prototype: { isAdmin: true } } })],
    ['10 MB name', `{"name": "${'x'.repeat(TEN_MB)}"}`],
    ['not JSON content type', 'name=x', 'text/plain'],
  ];
  if (schema?.required?.length) cases.push(['missing fields', '{}']);
  if (isObjectSchema(schema)) {
    const wrong: Record<string, unknown> = {};
    for (const [key, prop] of Object.entries(schema.properties)) {
      const w = wrongTypeFor(prop);
      if (w !== undefined) wrong[key] = w;
    }
    if (Object.keys(wrong).length) cases.push(['wrong types', JSON.stringify({ ...valid, ...wrong })]);
    const stringProps = Object.entries(schema.properties).filter(([, p]) => (p.type === 'string' || p.anyOf?.some((o) => o.type === 'string')) && !p.enum);
    if (stringProps.length) {
      const controlled = { ...valid, ...Object.fromEntries(stringProps.map(([k]) => [k, CONTROL])) };
      cases.push(['control characters in every string', JSON.stringify(controlled)]);
    }
  }
  return cases;
}

/** What is wrong with the answer to one bad body: anything but a 4xx of the fixed error shape, or the wrong 4xx where one is owed. */
function badBodyProblems(label: string, res: OperationOutcome): string[] {
  if (res.status < 400 || res.status >= 500) return [`status ${res.status}`];
  const problems = isErrorBody(res.body) ? [] : [`body ${JSON.stringify(res.body)}`];
  if (label === '10 MB name' && res.status !== 413) problems.push(`expected 413, got ${res.status}`);
  if (label === 'not JSON content type' && res.status !== 415 && res.status !== 400) problems.push(`expected 415, got ${res.status}`);
  return problems;
}

describe('bad input on every operation with a JSON body', () => {
  let t: TestApp;
  let ops: Operation[] = [];
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ops = (await listOperations(t.app)).filter((o) => o.jsonBody !== undefined);
    admin = await createUser(t.deps, { isAdmin: true });
  });
  afterAll(() => t.close());

  it('covers the accounts operations at least', () => {
    const ids = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    for (const id of [
      'POST /api/auth/signup',
      'POST /api/auth/login',
      'POST /api/auth/resend-verification',
      'POST /api/auth/refresh',
      'POST /api/auth/logout',
      'PATCH /api/profile',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('answers each bad body with a 4xx error of the fixed shape and changes no row', async () => {
    const problems: string[] = [];
    for (const op of ops) {
      const id = `${op.method.toUpperCase()} ${op.path}`;
      const before = await rowCounts(t);
      // The same path ids for every case, and the caller is an admin, so validation is what is tested.
      const pathId = crypto.randomUUID();
      for (const [label, body, contentType] of badBodies(op.jsonBody)) {
        const res = await callOperation(t.app, op, { token: admin.token, body, ...(contentType ? { contentType } : {}), pathParam: () => pathId });
        for (const p of badBodyProblems(label, res)) problems.push(`${id} ${label}: ${p}`);
      }
      const after = await rowCounts(t);
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${id}: rows changed ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    }
    expect(problems).toEqual([]);
    // Nothing leaked onto every object's prototype.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).is_admin).toBeUndefined();
  }, 120_000);

  it('refuses control characters and absurd lengths in the fields of sign-up specifically', async () => {
    const before = await rowCounts(t);
    const bodies = [
      { name: 'Bell\u0007', email: 'bell@example.test', password: 'secret-1' },
      { name: 'Nul\u0000', email: 'nul@example.test', password: 'secret-1' },
      { name: 'C1\u0085', email: 'c1@example.test', password: 'secret-1' },
      { name: 'Ok', email: 'ctl\u0000@example.test', password: 'secret-1' },
      { name: 'x'.repeat(81), email: 'long@example.test', password: 'secret-1' },
      { name: 'Ok', email: 'pw@example.test', password: 'x'.repeat(129) },
      { name: 'Ok', email: `${'a'.repeat(245)}@example.test`, password: 'secret-1' },
      { name: 12, email: 'types@example.test', password: 'secret-1' },
      { name: 'Ok', email: ['a@example.test'], password: 'secret-1' },
      { name: 'Ok', email: 'types@example.test', password: 123456 },
    ];
    for (const body of bodies) {
      const res = await call(t.app, 'POST', '/api/auth/signup', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect(await rowCounts(t)).toEqual(before);
  });
});

describe('forged, expired and malformed access tokens', () => {
  let t: TestApp;
  let member: TestUser;
  let bearerOps: Operation[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    member = await createUser(t.deps);
    bearerOps = (await listOperations(t.app)).filter((o) => o.bearer);
  });
  afterAll(() => t.close());

  async function badTokens(): Promise<Array<[string, string]>> {
    const real = await loadSigningKeys(t.dataDir, undefined);
    const issuer = t.deps.config.publicUrl;
    const now = Math.floor(t.deps.now() / 1000);
    const claims = (jwt: SignJWT) => jwt.setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).setSubject(member.id);
    const other = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const payload = { iss: issuer, aud: 'vidi', sub: member.id, iat: now, exp: now + 600 };
    const pem = await exportSPKI(other.publicKey);
    return [
      [
        'forged signature (another key)',
        await claims(new SignJWT({}))
          .setIssuer(issuer)
          .setAudience('vidi')
          .setIssuedAt(now)
          .setExpirationTime(now + 600)
          .sign(other.privateKey),
      ],
      [
        'expired',
        await claims(new SignJWT({}))
          .setIssuer(issuer)
          .setAudience('vidi')
          .setIssuedAt(now - 3600)
          .setExpirationTime(now - 60)
          .sign(real.privateKey),
      ],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`],
      ['alg none with a signature part', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.c2ln`],
      ['HS256 keyed with a public key', await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(pem))],
      [
        'wrong audience',
        await claims(new SignJWT({}))
          .setIssuer(issuer)
          .setAudience('someone-else')
          .setIssuedAt(now)
          .setExpirationTime(now + 600)
          .sign(real.privateKey),
      ],
      [
        'wrong issuer',
        await claims(new SignJWT({}))
          .setIssuer('https://evil.example')
          .setAudience('vidi')
          .setIssuedAt(now)
          .setExpirationTime(now + 600)
          .sign(real.privateKey),
      ],
      ['no expiry', await claims(new SignJWT({})).setIssuer(issuer).setAudience('vidi').setIssuedAt(now).sign(real.privateKey)],
      [
        'unknown subject',
        await new SignJWT({})
          .setProtectedHeader({ alg: 'EdDSA' })
          .setSubject(crypto.randomUUID())
          .setIssuer(issuer)
          .setAudience('vidi')
          .setIssuedAt(now)
          .setExpirationTime(now + 600)
          .sign(real.privateKey),
      ],
      [
        'tampered payload',
        (() => {
          const [h, , s] = member.token.split('.');
          return `${h}.${b64({ ...payload, sub: crypto.randomUUID() })}.${s}`;
        })(),
      ],
      ['garbage', 'garbage'],
      ['three garbage parts', 'a.b.c'],
      ['a refresh-token-like string', 'x'.repeat(43)],
    ];
  }

  it('answers 401 with the fixed error shape for each, on every bearer operation', async () => {
    const tokens = await badTokens();
    expect(bearerOps.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const op of bearerOps) {
      for (const [label, token] of tokens) {
        const res = await callOperation(t.app, op, { token });
        if (res.status !== 401 || typeof res.body?.error?.code !== 'string')
          problems.push(`${op.method.toUpperCase()} ${op.path} with ${label}: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    // The genuine token of the same user still works, so the refusals above are about the tokens.
    expect((await call(t.app, 'GET', '/api/profile', undefined, member.token)).status).toBe(200);
  }, 120_000);

  it('refuses malformed Authorization headers', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', `Bearer  ${member.token}`, `Bearer ${member.token} extra`, 'Bearer', `Token ${member.token}`]) {
      const res = await call(t.app, 'GET', '/api/profile', undefined, undefined, { authorization });
      expect(res.status, authorization.slice(0, 20)).toBe(401);
      expect(res.json.error.code).toMatch(/^(unauthorized|invalid_token)$/);
    }
  });

  it('stops honouring a genuine token once it expires', async () => {
    const { token } = await t.deps.tokens.issue(member.id);
    expect((await call(t.app, 'GET', '/api/profile', undefined, token)).status).toBe(200);
    t.advance(15 * 60 * 1000 + 1000);
    const res = await call(t.app, 'GET', '/api/profile', undefined, token);
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('invalid_token');
  });
});
