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
  if (!typeFits(s, v)) return false;
  if (typeof v === 'string') return stringFits(s, v);
  if (typeof v === 'number') return numberFits(s, v);
  if (Array.isArray(v)) return arrayFits(s, v);
  if (v && typeof v === 'object') return objectFits(s, v as Record<string, unknown>);
  return true;
}

function typeFits(s: Schema, v: unknown): boolean {
  if (!s.type) return true;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const t = typeOf(v);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** Outside [min, max] (either bound optional)? */
const outside = (n: number, min: number | undefined, max: number | undefined) => (min !== undefined && n < min) || (max !== undefined && n > max);

function stringFits(s: Schema, v: string): boolean {
  if (outside(v.length, s.minLength, s.maxLength)) return false;
  if (s.format === 'uuid' && !/^[0-9a-f-]{36}$/i.test(v)) return false;
  // Patterns are not checked: regex dialects differ (the generated doc even carries JS flags,
  // e.g. "^[^\\p{Cc}]*$/u"), and a wrong "surely invalid" would send a valid request.
  return s.format !== 'email' || v.includes('@');
}

function numberFits(s: Schema, v: number): boolean {
  if (outside(v, s.minimum, s.maximum)) return false;
  if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) return false;
  return s.exclusiveMaximum === undefined || v < s.exclusiveMaximum;
}

function arrayFits(s: Schema, v: unknown[]): boolean {
  if (outside(v.length, s.minItems, s.maxItems)) return false;
  return !s.items || v.every((x) => mightConform(s.items, x));
}

function objectFits(s: Schema, o: Record<string, unknown>): boolean {
  for (const r of s.required ?? []) if (!(r in o)) return false;
  for (const [k, x] of Object.entries(o)) {
    const ps = s.properties?.[k];
    if (ps ? !mightConform(ps, x) : s.additionalProperties === false) return false;
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
  return sampleOfType(s);
}

function sampleString(s: Schema): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'email') return `fuzz-${randomUUID().slice(0, 8)}@example.test`;
  return 'a'.repeat(Math.max(s.minLength ?? 1, 1));
}

function sampleOfType(s: Schema): unknown {
  switch (firstType(s)) {
    case 'string':
      return sampleString(s);
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

const firstType = (s: Schema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** Per JSON type: values of the wrong kind or out of bounds. */
const BAD_VALUES: Record<string, (s: Schema) => unknown[]> = {
  string: (s) => [
    12345,
    true,
    [],
    'x'.repeat((s.maxLength ?? 10_000) + 1),
    ...((s.minLength ?? 0) > 0 ? [''] : []),
    ...(s.format ? ['not-a-' + s.format] : []),
    '\u0000\ud800',
    "' OR 1=1 --",
    '../../etc/passwd',
  ],
  number: (s) => [
    '12',
    1.5,
    -1e308,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    ...(s.minimum !== undefined ? [s.minimum - 1] : []),
    ...(s.maximum !== undefined ? [s.maximum + 1] : []),
  ],
  boolean: () => ['true', 1, 0],
  array: (s) => [{}, 'list', Array.from({ length: (s.maxItems ?? 1000) + 1 }, () => sampleValid(s.items)), ...(s.items ? [[badValuesFor(s.items)[2]]] : [])],
  object: () => [[], 'object', 42],
};
BAD_VALUES.integer = BAD_VALUES.number!;

/** Values of the wrong kind or out of bounds for one schema. */
function badValuesFor(s: Schema): unknown[] {
  const t = firstType(s);
  const byType = t !== undefined && Object.hasOwn(BAD_VALUES, t) ? BAD_VALUES[t]!(s) : [];
  return [null, { nested: { deeper: [1, 2, 3] } }, ...byType, ...(s.enum ? ['not-one-of-them'] : [])];
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
