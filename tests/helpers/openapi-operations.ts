import type { App } from '#server/app';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';
  path: string;
  /** The operation declares `bearerAuth` security (needs a signed-in user). */
  bearer: boolean;
  /** The JSON Schema of its application/json request body, when it has one. */
  jsonBody: JsonSchema | undefined;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/** Every operation of the app's own OpenAPI document (what the authorization and bad-input suites walk). */
export async function listOperations(app: App): Promise<Operation[]> {
  const res = await app.request('/api/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, JsonSchema> } };
  const schemas = doc.components?.schemas ?? {};
  const deref = (s: JsonSchema | undefined): JsonSchema | undefined => {
    if (s?.$ref) return deref(schemas[s.$ref.replace('#/components/schemas/', '')]);
    return s;
  };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security = (op.security ?? []) as Array<Record<string, unknown>>;
      ops.push({
        method,
        path,
        bearer: security.some((s) => 'bearerAuth' in s),
        jsonBody: deref(op.requestBody?.content?.['application/json']?.schema),
      });
    }
  }
  return ops;
}

function typeOf(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  return s.type;
}

/** The first non-null branch of an anyOf/oneOf, or the schema itself. */
function branch(s: JsonSchema): JsonSchema {
  const options = s.anyOf ?? s.oneOf;
  if (options?.length) return branch(options.find((o) => o.type !== 'null') ?? options[0] ?? {});
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map(branch)) as JsonSchema;
  return s;
}

const EXAMPLE_FORMATS = new Map([
  ['email', 'probe@example.test'],
  ['uuid', '00000000-0000-4000-8000-000000000000'],
  ['uri', 'https://example.test/'],
  ['url', 'https://example.test/'],
  ['date-time', '2030-01-01T00:00:00.000Z'],
  ['date', '2030-01-01'],
]);

function exampleNumber(s: JsonSchema): number {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
  return s.maximum !== undefined ? Math.min(min, s.maximum) : min;
}

/**
 * A minimal value that satisfies `schema` as far as a JSON Schema can tell (formats, lengths,
 * bounds, enums): the valid base that the bad-input suite breaks one way at a time.
 */
export function exampleFor(schema: JsonSchema | undefined): unknown {
  if (!schema) return {};
  const s = branch(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  return exampleOfType(s);
}

function exampleOfType(s: JsonSchema): unknown {
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = exampleFor(s.properties?.[key]);
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => exampleFor(s.items));
    case 'integer':
    case 'number':
      return exampleNumber(s);
    case 'boolean':
      return true;
    case 'string':
      return EXAMPLE_FORMATS.get(s.format ?? '') ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return 'x';
  }
}

/** A value of the wrong JSON type for `schema`, or undefined when any type would do. */
export function wrongTypeFor(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  switch (typeOf(branch(schema))) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'object':
      return 'not an object';
    case 'array':
      return { not: 'an array' };
    default:
      return undefined;
  }
}

/** Whether `body` has the API's error shape, {"error":{"code","message"}}. */
export function isErrorBody(body: any): boolean {
  return typeof body?.error?.code === 'string' && typeof body?.error?.message === 'string';
}

export interface OperationOutcome {
  status: number;
  /** The parsed JSON body; undefined for other content types (an event stream is never read). */
  body: any;
}

/**
 * Calls `op` in-process with random UUIDs for its path parameters. `body` is sent as is (a string)
 * with `contentType`; by default every non-GET gets `{}` as JSON.
 */
export async function callOperation(
  app: App,
  op: Operation,
  opts: { token?: string | undefined; body?: string; contentType?: string; pathParam?: () => string } = {},
): Promise<OperationOutcome> {
  const param = opts.pathParam ?? (() => crypto.randomUUID());
  const path = op.path.replace(/\{[^}]+\}/g, () => param());
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const init: RequestInit = { method: op.method.toUpperCase(), headers };
  if (op.method !== 'get' && op.method !== 'head') {
    headers['content-type'] = opts.contentType ?? 'application/json';
    init.body = opts.body ?? '{}';
  }
  const res = await app.request(path, init);
  if (!(res.headers.get('content-type') ?? '').includes('json')) {
    await res.body?.cancel();
    return { status: res.status, body: undefined };
  }
  return { status: res.status, body: await res.json() };
}
