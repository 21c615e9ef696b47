import type { AppDeps, AuthUser } from '#server/context';
import type { JsonError } from './responses';

/** What each verb's handler needs from the endpoint (server/uploads/tus-server.ts builds it). */
export interface TusContext {
  deps: AppDeps;
  json: JsonError;
  /** Passes the request to @tus/server for `user` (its hooks only see the request) and answers errors as JSON. */
  forward(request: Request, user: AuthUser): Promise<Response>;
  /** The Retry-After a creation hook asked for (tus hooks cannot set headers). */
  retryAfterOf(request: Request): number | undefined;
}

export type VerbHandler = (ctx: TusContext, request: Request, user: AuthUser) => Promise<Response>;
