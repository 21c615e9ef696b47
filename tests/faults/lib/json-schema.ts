import { randomUUID } from 'node:crypto';

/** The parts of JSON Schema (as @hono/zod-openapi emits for OpenAPI 3.1) the fuzzer understands. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  default?: unknown;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/**
 * Whether `v` MIGHT satisfy the schema. Anything this checker does not understand counts as
 * "might": the fuzzer only sends values this says are surely invalid, so a random value that
 * happens to be a valid request (and would change state) is never sent.
 */
export function mightConform(s: Schema | undefined, v: unknown): boolean {
  if (!s || s.$ref || s.allOf) return true;
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf)!.some((x) => mightConform(x, v));
  if ('const' in s) return v === s.const;
  if (s.enum) return s.enum.includes(v);
  if (s.type) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(v);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return false;
  }
  if (typeof v === 'string') {
    if (s.minLength !== undefined && v.length < s.minLength) return false;
    if (s.maxLength !== undefined && v.length > s.maxLength) return false;
    if (s.format === 'uuid' && !/^[0-9a-f-]{36}$/i.test(v)) return false;
    if (s.format === 'email' && !v.includes('@')) return false;
    // Patterns are not checked: regex dialects differ (the generated doc even carries JS flags,
    // e.g. "^[^\\p{Cc}]*$/u"), and a wrong "surely invalid" would send a valid request.
  }
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) return false;
    if (s.maximum !== undefined && v > s.maximum) return false;
    if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) return false;
    if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum) return false;
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) return false;
    if (s.maxItems !== undefined && v.length > s.maxItems) return false;
    if (s.items && !v.every((x) => mightConform(s.items, x))) return false;
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in o)) return false;
    for (const [k, x] of Object.entries(o)) {
      const ps = s.properties?.[k];
      if (ps) {
        if (!mightConform(ps, x)) return false;
      } else if (s.additionalProperties === false) return false;
    }
  }
  return true;
}

/** A value that satisfies the schema as far as we can tell (the base that one violation spoils). */
export function sampleValid(s: Schema | undefined): unknown {
  if (!s) return 'x';
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (s.anyOf || s.oneOf) return sampleValid((s.anyOf ?? s.oneOf)![0]);
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (t) {
    case 'string':
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'email') return `fuzz-${randomUUID().slice(0, 8)}@example.test`;
      return 'a'.repeat(Math.max(s.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleValid(s.items));
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const r of s.required ?? []) o[r] = sampleValid(s.properties?.[r]);
      return o;
    }
    default:
      return null;
  }
}

/** Values of the wrong kind or out of bounds for one schema. */
function badValuesFor(s: Schema): unknown[] {
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  const out: unknown[] = [null, { nested: { deeper: [1, 2, 3] } }];
  if (t === 'string') {
    out.push(12345, true, [], 'x'.repeat((s.maxLength ?? 10_000) + 1));
    if ((s.minLength ?? 0) > 0) out.push('');
    if (s.format) out.push('not-a-' + s.format);
    out.push('\u0000\ud800', "' OR 1=1 --", '../../etc/passwd');
  } else if (t === 'integer' || t === 'number') {
    out.push('12', 1.5, -1e308, 1e308, Number.MAX_SAFE_INTEGER + 2);
    if (s.minimum !== undefined) out.push(s.minimum - 1);
    if (s.maximum !== undefined) out.push(s.maximum + 1);
  } else if (t === 'boolean') {
    out.push('true', 1, 0);
  } else if (t === 'array') {
    out.push({}, 'list', Array.from({ length: (s.maxItems ?? 1000) + 1 }, () => sampleValid(s.items)));
    if (s.items) out.push([badValuesFor(s.items)[2]]);
  } else if (t === 'object') {
    out.push([], 'object', 42);
  }
  if (s.enum) out.push('not-one-of-them');
  return out;
}

/**
 * Schema-driven malformed bodies: wrong top-level kinds, each required field missing, each field
 * spoiled in turn (the others valid, so each validator is reached), and an unknown field.
 */
export function invalidBodies(s: Schema): unknown[] {
  const out: unknown[] = [null, [], 'text', 0, true, {}];
  const base = sampleValid(s);
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    const b = base as Record<string, unknown>;
    for (const r of s.required ?? []) {
      const { [r]: _gone, ...rest } = b;
      out.push(rest);
    }
    for (const [k, ps] of Object.entries(s.properties ?? {})) {
      for (const bad of badValuesFor(ps)) out.push({ ...b, [k]: bad });
    }
    out.push({ ...b, unexpected_field: 'x' });
  }
  return out.filter((v) => !mightConform(s, v));
}
