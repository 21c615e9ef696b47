import { randomBytes } from 'node:crypto';
import { Server, type Upload } from '@tus/server';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { authenticateBearer } from './auth';
import { finishUpload, UploadRejected } from './finish';
import type { UploadArea } from './upload-area';
import type { UploadHashes } from './upload-hashes';
import { openUploadStorage } from './upload-storage';
import type { PgUploadLocker } from './upload-locker';
import type { TusContext, VerbHandler } from './tus-handlers/context';
import { createUploadRow, hookError } from './tus-handlers/create-hook';
import { handleDelete } from './tus-handlers/delete';
import { handleHead } from './tus-handlers/head';
import { TUS_PATH, UPLOAD_ID_RE } from './tus-handlers/own-upload';
import { handlePatch } from './tus-handlers/patch';
import { handlePost } from './tus-handlers/post';
import { asJsonError, jsonErrors } from './tus-handlers/responses';
import { MAX_UPLOAD_BYTES } from '#sync/protocol/limits';
import { releasePoster } from './poster-files';
import { UPLOAD_WINDOW_MS } from './quotas';

export { TUS_PATH };
export const UPLOAD_EXPIRY_MS = UPLOAD_WINDOW_MS;

export interface TusEndpoint {
  tus: Server;
  /** The running sha256 of each upload on disk (dropped with the upload). */
  hashes: UploadHashes;
  /** Where unfinished uploads are kept (DATA_DIR/uploads or the bucket's root). */
  area: UploadArea;
  /** The cross-instance upload locks on PostgreSQL; undefined on SQLite (tus's in-process locker). */
  pgLocker: PgUploadLocker | undefined;
  /** Handles one request under /files (a web Request, from Hono or from the node listener). */
  handle(request: Request): Promise<Response>;
  /** Releases the lock connections, the hashing thread and the S3 client. */
  close(): Promise<void>;
}

/** One handler per verb, as @tus/server's own handlers/ are; OPTIONS goes to tus unauthenticated. */
const VERB_HANDLERS = new Map<string, VerbHandler>([
  ['POST', handlePost],
  ['HEAD', handleHead],
  ['PATCH', handlePatch],
  ['DELETE', handleDelete],
]);

/**
 * The tus 1.0.0 server (core, creation, creation-with-upload, termination, expiration) behind the
 * bearer token. Every request is authenticated and, for an existing upload, checked against the
 * `uploads` row (only its creator may touch it) before tus sees it.
 */
export function createTusServer(deps: AppDeps): TusEndpoint {
  const { config, log } = deps;
  const users = new WeakMap<Request, AuthUser>();
  /** Retry-After of a creation the hook refused (tus hooks cannot set headers). */
  const retryAfter = new WeakMap<Request, number>();
  // Disk or S3, without creation-defer-length either way (the length is checked at creation).
  const storage = openUploadStorage(deps, UPLOAD_EXPIRY_MS);
  const { datastore, area, hashes, locker, pgLocker } = storage;

  const tus = new Server({
    path: TUS_PATH,
    datastore,
    locker,
    // "If the length of the upload exceeds the maximum, which MAY be specified using the Tus-Max-Size header, the
    // Server MUST respond with the 413 Request Entity Too Large status." (https://tus.io/protocols/resumable-upload#creation)
    maxSize: MAX_UPLOAD_BYTES,
    relativeLocation: true,
    allowedOrigins: [config.publicUrl],
    disableTerminationForFinishedUploads: true,
    namingFunction: () => randomBytes(16).toString('hex'),
    getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID_RE.test(lastPath) ? lastPath : undefined),
    async onUploadCreate(req: Request, upload: Upload) {
      const replaced = await createUploadRow(deps, users.get(req), upload, (wait) => retryAfter.set(req, wait));
      for (const id of replaced) hashes.forget(id);
      return {};
    },
    async onUploadFinish(_req: Request, upload: Upload) {
      try {
        const { videoId } = await finishUpload(deps, upload.id, area);
        return { headers: { 'Vidi-Video-Id': videoId } };
      } catch (e) {
        if (e instanceof UploadRejected) throw hookError(422, e.code, e.message);
        throw e;
      }
    },
    onResponseError(_req, err) {
      if (err instanceof Error) log.error('tus request failed', err);
      return undefined;
    },
  });

  const json = jsonErrors(config.publicUrl);
  const ctx: TusContext = {
    deps,
    json,
    async forward(request, user) {
      users.set(request, user);
      return asJsonError(await tus.handleWeb(request), request.method);
    },
    retryAfterOf: (request) => retryAfter.get(request),
  };

  async function handle(request: Request): Promise<Response> {
    const method = request.method;
    if (method === 'OPTIONS') return tus.handleWeb(request);
    let user: AuthUser;
    try {
      user = await authenticateBearer(deps, request.headers.get('authorization'));
    } catch (e) {
      if (e instanceof ApiError) return json(e.status, e.code, e.message);
      throw e;
    }
    const handler = VERB_HANDLERS.get(method);
    if (!handler) return json(405, 'method_not_allowed', `${method} is not supported on uploads.`, { Allow: 'OPTIONS, POST, HEAD, PATCH, DELETE' });
    return handler(ctx, request, user);
  }

  return { tus, hashes, area, pgLocker, handle, close: storage.close };
}

/** One tus server per deps, shared by the node listener (npm start) and createApp (in-process tests). */
const endpoints = new WeakMap<AppDeps, TusEndpoint>();
export function tusEndpointFor(deps: AppDeps): TusEndpoint {
  let endpoint = endpoints.get(deps);
  if (!endpoint) {
    endpoint = createTusServer(deps);
    endpoints.set(deps, endpoint);
  }
  return endpoint;
}

/** Closes the endpoint of these deps, if one was made (server shutdown, tests). */
export async function closeTusEndpoint(deps: AppDeps): Promise<void> {
  const endpoint = endpoints.get(deps);
  endpoints.delete(deps);
  await endpoint?.close();
}

export function isTusPath(url: string | undefined): boolean {
  return !!url && (url === TUS_PATH || url.startsWith(`${TUS_PATH}/`) || url.startsWith(`${TUS_PATH}?`));
}

/** Removes partial uploads older than 24 h (tus expiration) and marks their rows expired. */
export async function cleanUpExpiredUploads(deps: AppDeps): Promise<{ files: number; rows: number }> {
  const endpoint = tusEndpointFor(deps);
  const files = await endpoint.tus.cleanUpExpiredUploads();
  const cutoff = deps.now() - UPLOAD_EXPIRY_MS;
  const stale = await deps.db
    .selectFrom('uploads')
    .select(['id', 'user_id', 'video_id', 'poster_key'])
    .where('status', '=', 'uploading')
    .where('created_at', '<', cutoff)
    .execute();
  let expired = 0;
  for (const s of stale) {
    // Still unfinished: its last PATCH may have finished it since the list was read.
    const res = await deps.db
      .updateTable('uploads')
      .set({ status: 'expired', reason: 'Not finished within 24 hours.', poster_key: null, updated_at: deps.now() })
      .where('id', '=', s.id)
      .where('status', '=', 'uploading')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) continue;
    expired++;
    await endpoint.area.remove(s.id);
    await releasePoster(deps, s.poster_key, { userId: s.user_id, videoId: s.video_id });
  }
  // Posters of refused uploads are kept a while (a retry of the same video reuses them), then go.
  const refused = await deps.db
    .selectFrom('uploads')
    .select(['id', 'user_id', 'video_id', 'poster_key'])
    .where('status', 'in', ['rejected', 'cancelled', 'expired'])
    .where('poster_key', 'is not', null)
    .where('updated_at', '<', cutoff)
    .execute();
  for (const r of refused) {
    await deps.db.updateTable('uploads').set({ poster_key: null }).where('id', '=', r.id).execute();
    await releasePoster(deps, r.poster_key, { userId: r.user_id, videoId: r.video_id });
  }
  return { files, rows: expired };
}

/** Started by main.ts: hourly cleanup, never keeping the process alive. */
export function startUploadCleanup(deps: AppDeps, everyMs = 60 * 60 * 1000): () => void {
  const run = () =>
    void cleanUpExpiredUploads(deps).then(
      (r) => r.files + r.rows > 0 && deps.log.info(`upload cleanup: ${r.files} expired files, ${r.rows} rows`),
      (e: unknown) => deps.log.error('upload cleanup failed', e),
    );
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
