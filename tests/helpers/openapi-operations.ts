import type { App } from '../../server/app';

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
