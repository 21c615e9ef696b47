import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from '../context';
import { errorBody } from './errors';

/** One readable sentence from a zod error: the first problem, with where it is. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request.';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * Every router is made here so that a request failing its schema always gets the same 400 JSON
 * error shape, whichever area it belongs to.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json(errorBody('invalid_request', describeZodError(result.error)), 400);
      return undefined;
    },
  });
}
