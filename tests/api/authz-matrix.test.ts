import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { callOperation, isErrorBody, listOperations, type Operation, type OperationOutcome as Outcome } from '../helpers/openapi-operations';

// The server, not the browser, enforces every role (docs/decisions/0013-the-server-enforces-every-rule.md). This matrix reads the OpenAPI
// document the app publishes, so every operation added later is covered without touching this file.

type Caller = 'anonymous' | 'member' | 'suspended' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'member', 'suspended', 'admin'];

const WANT: Record<Caller, 'allowed' | 401 | 403> = { anonymous: 401, suspended: 403, member: 'allowed', admin: 'allowed' };

/** What a bearer operation owes `caller`: members are refused the admin routes, whatever else they may do. */
function roleProblems(op: Operation, caller: Caller, outcome: Outcome): string[] {
  const { status } = outcome;
  const expected = caller === 'member' && op.path.startsWith('/api/admin/') ? 403 : WANT[caller];
  if (expected === 'allowed') return status === 401 || status === 403 ? [`allowed caller got ${status} (${outcome.body?.error?.code})`] : [];
  return status !== expected ? [`expected ${expected}, got ${status}`] : [];
}

function expectedProblems(op: Operation, caller: Caller, outcome: Outcome): string[] {
  const problems: string[] = [];
  const { status } = outcome;
  if (status >= 500) problems.push(`answered ${status}`);
  if (status >= 400 && !isErrorBody(outcome.body)) problems.push(`error ${status} without the {"error":{"code","message"}} body`);
  if (op.bearer) return [...problems, ...roleProblems(op, caller, outcome)];
  if (status === 401) problems.push('public operation answered 401');
  return problems;
}

describe('authorization matrix over every operation in /api/openapi.json', () => {
  let t: TestApp;
  let ops: Operation[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    ops = await listOperations(t.app);
  });
  afterAll(() => t.close());

  it('finds the operations it is meant to cover', () => {
    const ids = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    for (const known of [
      'POST /api/auth/signup',
      'POST /api/auth/login',
      'POST /api/auth/refresh',
      'POST /api/auth/logout',
      'GET /api/profile',
      'PATCH /api/profile',
    ]) {
      expect(ids).toContain(known);
    }
    expect(ops.find((o) => o.path === '/api/profile')?.bearer).toBe(true);
    expect(ops.find((o) => o.path === '/api/auth/login')?.bearer).toBe(false);
  });

  it('declares bearer security on every admin operation', () => {
    const unprotected = ops.filter((o) => o.path.startsWith('/api/admin/') && !o.bearer).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(unprotected).toEqual([]);
  });

  it('gives every caller the answer its role allows, and never a 5xx', async () => {
    const problems: string[] = [];
    let anonymousRefused = 0;
    for (const op of ops) {
      // Fresh callers per operation: an operation may change its caller (sign-out, suspension).
      const [member, suspended, admin] = await Promise.all([
        createUser(t.deps),
        createUser(t.deps, { isActive: false }),
        createUser(t.deps, { isAdmin: true }),
      ]);
      const tokens: Record<Caller, string | undefined> = { anonymous: undefined, member: member.token, suspended: suspended.token, admin: admin.token };
      for (const caller of CALLERS) {
        const outcome = await callOperation(t.app, op, { token: tokens[caller] });
        if (caller === 'anonymous' && outcome.status === 401) anonymousRefused++;
        for (const p of expectedProblems(op, caller, outcome)) problems.push(`${op.method.toUpperCase()} ${op.path} as ${caller}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
    expect(anonymousRefused).toBe(ops.filter((o) => o.bearer).length);
    expect(ops.length).toBeGreaterThanOrEqual(8);
  }, 120_000);

  it('refuses a deleted user’s still-unexpired access token on every bearer operation', async () => {
    const gone = await createUser(t.deps);
    await t.deps.db.deleteFrom('profiles').where('id', '=', gone.id).execute();
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.bearer)) {
      const outcome = await callOperation(t.app, op, { token: gone.token });
      if (outcome.status !== 401) problems.push(`${op.method.toUpperCase()} ${op.path}: ${outcome.status}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
