import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import type { AppDeps } from '#server/context';
import { serve, type ServerType } from '@hono/node-server';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openClientDb, type ClientDb } from '#client/sync/db';
import { SyncEngine, type SyncOptions } from '#client/sync/sync-engine';
import type { Rejection } from '#client/sync/outbox';

/**
 * Puts a finished video straight into the database, the way the upload pipeline leaves it (row +
 * change log), for sync tests that are not about uploading.
 */
export async function insertVideo(
  deps: AppDeps,
  ownerId: string,
  opts: { id?: string; title?: string; createdAt?: number; durationMs?: number } = {},
): Promise<string> {
  const id = opts.id ?? randomUUID();
  const at = opts.createdAt ?? deps.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('videos')
      .values({
        id,
        user_id: ownerId,
        title: opts.title ?? `Video ${id.slice(0, 4)}`,
        description: '',
        file_key: `${ownerId}/${at}-clip.mp4`,
        mime_type: 'video/mp4',
        size_bytes: 1000,
        duration_ms: opts.durationMs ?? 5000,
        sha256: '0'.repeat(64),
        poster_key: null,
        created_at: at,
        likes_count: 0,
        comments_count: 0,
        shares_count: 0,
        views_count: 0,
      })
      .execute();
    await trx.insertInto('change_log').values({ entity: 'video', entity_id: id, video_id: id, user_id: null, deleted: 0, created_at: at }).execute();
  });
  deps.pokes.notify(['feed']);
  return id;
}

/** The server's truth about one video: counters and the rows they count. */
export async function videoTruth(deps: AppDeps, videoId: string) {
  const v = await deps.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirst();
  const count = async (table: 'likes' | 'comments' | 'shares' | 'views') =>
    Number(
      (
        await deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('video_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    exists: !!v,
    likes_count: v?.likes_count ?? 0,
    comments_count: v?.comments_count ?? 0,
    shares_count: v?.shares_count ?? 0,
    views_count: v?.views_count ?? 0,
    likes: await count('likes'),
    comments: await count('comments'),
    shares: await count('shares'),
    /** shares_count counts members, not share rows (docs/rewards.md, "The rule"). */
    sharers: Number(
      (
        await deps.db
          .selectFrom('shares')
          .select((eb) => eb.fn.count('user_id').distinct().as('n'))
          .where('video_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    views: await count('views'),
  };
}

// ---- Devices: fake IndexedDB per device, the real sync engine, a controllable network ----

/** Serves an in-process app on a loopback port (real HTTP, real streaming). */
export async function listen(fetchHandler: (req: Request) => Response | Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: fetchHandler, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const s = server as unknown as { close(cb: () => void): void; closeAllConnections?: () => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      }),
  };
}

/**
 * A flaky network between a device and the server: offline (requests fail before they leave), or
 * dropping responses (the server handled the request, the device never hears back).
 */
export class Network {
  offline = false;
  /** Push requests whose response is lost after the server committed. */
  dropPushResponses = 0;
  /** Requests answered 503 by a proxy in front of the server (the server never sees them). */
  unavailable = 0;
  /** Every request of any kind fails with this probability (decided by `rand`). */
  failRate = 0;
  rand: () => number = Math.random;
  requests: string[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = String(input);
    this.requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    if (this.offline) throw new TypeError('fetch failed (offline)');
    if (this.unavailable > 0) {
      this.unavailable -= 1;
      return new Response(JSON.stringify({ error: { code: 'unavailable', message: 'Service unavailable.' } }), { status: 503 });
    }
    if (this.failRate && this.rand() < this.failRate) throw new TypeError('fetch failed (flaky)');
    const res = await fetch(input, init);
    if (url.endsWith('/api/sync/push') && this.dropPushResponses > 0) {
      this.dropPushResponses -= 1;
      await res.arrayBuffer();
      throw new TypeError('connection reset (response lost)');
    }
    if (this.failRate && this.rand() < this.failRate) {
      await res.arrayBuffer().catch(() => undefined);
      throw new TypeError('connection reset (flaky)');
    }
    return res;
  };
}

export interface Device {
  factory: IDBFactory;
  db: ClientDb;
  /** A new Dexie instance on the same IndexedDB: a reload, or a second tab. */
  reopen(): ClientDb;
}

let deviceSeq = 0;
export function newDevice(): Device {
  const factory = new IDBFactory();
  const name = `vidi-device-${++deviceSeq}`;
  return {
    factory,
    db: openClientDb(name, { indexedDB: factory, IDBKeyRange }),
    reopen: () => openClientDb(name, { indexedDB: factory, IDBKeyRange }),
  };
}

export interface TestEngine {
  engine: SyncEngine;
  rejections: Rejection[];
}

export function engineFor(db: ClientDb, user: { id: string; token: string }, baseUrl: string, net: Network, extra: Partial<SyncOptions> = {}): TestEngine {
  const rejections: Rejection[] = [];
  const engine = new SyncEngine({
    userId: user.id,
    getAccessToken: () => user.token,
    refreshSession: async () => null,
    onRejected: (r) => rejections.push(r),
    db,
    fetch: net.fetch,
    baseUrl,
    live: false,
    ...extra,
  });
  return { engine, rejections };
}

/** The device's view of one video (what the UI shows), or undefined. */
export async function localVideo(db: ClientDb, id: string) {
  return db.videos.get(id);
}

export interface SyncServer {
  t: TestApp;
  http: { url: string; close(): Promise<void> };
  alice: TestUser;
  bob: TestUser;
  /** Engines a test started: stopped after each test. */
  running: SyncEngine[];
}

/** Registers the hooks of a suite against one test app on a real loopback port, with two members. */
export function useSyncServer(): SyncServer {
  const s = { running: [] as SyncEngine[] } as SyncServer;
  beforeAll(async () => {
    s.t = await createTestApp();
    s.http = await listen(s.t.app.fetch);
    s.alice = await createUser(s.t.deps, { name: 'Alice' });
    s.bob = await createUser(s.t.deps, { name: 'Bob' });
  });
  afterEach(async () => {
    for (const e of s.running.splice(0)) await e.stop();
  });
  afterAll(async () => {
    await s.http.close();
    await s.t.close();
  });
  return s;
}
