import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import {
  createUploadRaw,
  encodeMetadata,
  listen,
  rawRequest,
  runUpload,
  serverError,
  videoMetadata,
  type LoopbackServer,
  terminateUnfinished,
} from '../fixtures/tus-client';
import { hugeBoxMp4, matroska, mp4Faststart, mp4ThreeMinutes, oversized, posterJpeg, textAsMp4, truncatedMp4, zeroTimescaleMp4 } from '../fixtures/videos';
import { cleanUpExpiredUploads } from '#server/uploads/tus-server';
import { allMediaKeys, mediaExists, tusObjects } from './upload-storage';

describe('uploads refuse bad input with a clear error and store nothing', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });
  // Frees the slots (3 uploads in progress per member) that a test's unfinished uploads hold.
  afterEach(() => terminateUnfinished(t, srv.url));

  const tus = (token: string | null, extra: Record<string, string> = {}) => ({
    'Tus-Resumable': '1.0.0',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  const count = async (table: 'videos' | 'uploads') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mediaFiles = () => allMediaKeys(t.deps);
  /** What tus keeps (files in DATA_DIR/uploads, or objects at the bucket's root). */
  const uploadFiles = (id?: string) => tusObjects(t.deps, id);

  describe('refused when the file arrives (content, not name)', () => {
    const cases: Array<[string, () => Promise<string>, string, RegExp]> = [
      ['a text file renamed .mp4', textAsMp4, 'unsupported_format', /not a supported video/],
      ['a truncated MP4', truncatedMp4, 'truncated_file', /truncated/],
      ['a box with a 2^64 size', hugeBoxMp4, 'truncated_file', /runs past the end/],
      ['a timescale of 0', zeroTimescaleMp4, 'invalid_container', /time scale is 0/],
      ['an EBML file that is not WebM', matroska, 'unsupported_format', /"matroska", not a WebM/],
      ['a 3-minute video', mp4ThreeMinutes, 'video_too_long', /180 seconds long; videos may be at most 2 minutes/],
    ];
    for (const [name, fixture, code, message] of cases) {
      it(`refuses ${name}`, async () => {
        const bytes = readFileSync(await fixture());
        const meta = videoMetadata({ filename: 'clip.mp4' });
        const videosBefore = await count('videos');
        const mediaBefore = (await mediaFiles()).length;
        const e = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta }).then(
          () => null,
          (err: unknown) => err,
        );
        expect(e, 'the upload must fail').not.toBeNull();
        const { status, body } = serverError(e);
        expect(status).toBe(422);
        expect(body.error.code).toBe(code);
        expect(body.error.message).toMatch(message);
        expect(await count('videos')).toBe(videosBefore);
        expect((await mediaFiles()).length).toBe(mediaBefore);
        const row = await t.deps.db.selectFrom('uploads').selectAll().where('video_id', '=', meta.videoId!).executeTakeFirstOrThrow();
        expect(row.status).toBe('rejected');
        expect(row.reason).toMatch(message);
        expect(await uploadFiles(row.id)).toEqual([]);
        // The client later asking about it learns the reason too.
        const head = await rawRequest(
          srv.url,
          'PATCH',
          `/files/${row.id}`,
          tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
        );
        expect(head.status).toBe(410);
        expect(JSON.parse(head.body).error.message).toMatch(message);
      });
    }
  });

  it('refuses a missing title before any byte is sent', async () => {
    const uploadsBefore = await count('uploads');
    for (const meta of [videoMetadata({ title: '' }), videoMetadata({ title: '    ' }), (({ title: _t, ...m }) => m)(videoMetadata())]) {
      const res = await fetch(`${srv.url}/files/`, {
        method: 'POST',
        headers: tus(alice.token, { 'Upload-Length': '1000', 'Upload-Metadata': encodeMetadata(meta) }),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ error: { code: 'missing_title', message: 'Please provide a title for the video.' } });
    }
    // tus-js-client gets the same answer, before sending the file.
    const e = await runUpload({
      baseUrl: srv.url,
      token: alice.token,
      bytes: readFileSync(await mp4Faststart()),
      metadata: videoMetadata({ title: '' }),
    }).catch((x: unknown) => x);
    expect(serverError(e).body.error.code).toBe('missing_title');
    expect(await count('uploads')).toBe(uploadsBefore);
    expect(await uploadFiles()).toEqual([]);
  });

  it('refuses bad metadata: a video id that is not a UUID, a long title or description, a non-video type', async () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [videoMetadata({ videoId: 'not-a-uuid' }), /videoId/],
      [videoMetadata({ title: 'x'.repeat(121) }), /at most 120/],
      [videoMetadata({ description: 'x'.repeat(2001) }), /at most 2000/],
      [videoMetadata({ filetype: 'text/plain' }), /Please select a video file/],
    ];
    for (const [meta, message] of bad) {
      const res = await fetch(`${srv.url}/files/`, {
        method: 'POST',
        headers: tus(alice.token, { 'Upload-Length': '1000', 'Upload-Metadata': encodeMetadata(meta) }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.message).toMatch(message);
    }
    const ok = await fetch(`${srv.url}/files/`, {
      method: 'POST',
      headers: tus(alice.token, {
        'Upload-Length': '1000',
        'Upload-Metadata': encodeMetadata(videoMetadata({ title: 'x'.repeat(120), description: 'd'.repeat(2000) })),
      }),
    });
    expect(ok.status).toBe(201);
  });

  it('refuses 121 MiB at creation (413), before any byte, also through tus-js-client', async () => {
    const size = 121 * 1024 * 1024;
    const res = await fetch(`${srv.url}/files/`, {
      method: 'POST',
      headers: tus(alice.token, { 'Upload-Length': String(size), 'Upload-Metadata': encodeMetadata(videoMetadata()) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe('file_too_large');
    const exactly = await fetch(`${srv.url}/files/`, {
      method: 'POST',
      headers: tus(alice.token, { 'Upload-Length': '125829120', 'Upload-Metadata': encodeMetadata(videoMetadata()) }),
    });
    expect(exactly.status).toBe(201);

    const before = srv.bytesRead();
    const e = await runUpload({ baseUrl: srv.url, token: alice.token, bytes: readFileSync(await oversized()) }).catch((x: unknown) => x);
    expect(serverError(e).status).toBe(413);
    expect(srv.bytesRead() - before).toBeLessThan(64 * 1024);
  });

  it('refuses a deferred length (the size must be known up front)', async () => {
    const res = await fetch(`${srv.url}/files/`, {
      method: 'POST',
      headers: tus(alice.token, { 'Upload-Defer-Length': '1', 'Upload-Metadata': encodeMetadata(videoMetadata()) }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('length_required');
  });

  it('answers a PATCH at the wrong offset with 409 and a wrong content type with 415, changing nothing', async () => {
    const path = await createUploadRaw(srv.url, alice.token, 1000);
    const first = await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
      new Uint8Array(100),
    );
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe('100');
    const conflict = await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '50', 'Content-Type': 'application/offset+octet-stream' }),
      new Uint8Array(10),
    );
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.body).error.code).toBe('offset_conflict');
    const wrongType = await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '100', 'Content-Type': 'application/json' }),
      new Uint8Array(10),
    );
    expect(wrongType.status).toBe(415);
    expect(JSON.parse(wrongType.body).error.code).toBe('unsupported_media_type');
    const head = await rawRequest(srv.url, 'HEAD', path, tus(alice.token));
    expect(head.headers['upload-offset']).toBe('100');
  });

  it('refuses upload ids with %2F, %00, .. and other shapes (404), without touching other files', async () => {
    const path = await createUploadRaw(srv.url, alice.token, 1000);
    const id = path.split('/').pop()!;
    writeFileSync(join(t.deps.config.dataDir, 'secret.txt'), 'secret');
    const paths = [
      `/files/..%2F${id}`,
      `/files/${id}%2F..`,
      `/files/%2E%2E`,
      `/files/..`,
      `/files/${id}%00`,
      `/files/%00`,
      `/files/..%2Fsecret.txt`,
      `/files/../secret.txt`,
      `/files/${id.toUpperCase()}`,
      `/files/${id}/extra`,
    ];
    for (const p of paths) {
      for (const method of ['HEAD', 'PATCH', 'DELETE']) {
        const res = await rawRequest(
          srv.url,
          method,
          p,
          tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
          method === 'PATCH' ? new Uint8Array(10) : undefined,
        );
        expect([404, 400], `${method} ${p}`).toContain(res.status);
      }
    }
    expect(readFileSync(join(t.deps.config.dataDir, 'secret.txt'), 'utf8')).toBe('secret');
    const head = await rawRequest(srv.url, 'HEAD', path, tus(alice.token));
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
  });

  it("treats someone else's upload id as unknown (404) for HEAD, PATCH and DELETE", async () => {
    const path = await createUploadRaw(srv.url, alice.token, 1000);
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      const res = await rawRequest(
        srv.url,
        method,
        path,
        tus(bob.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
        method === 'PATCH' ? new Uint8Array(10) : undefined,
      );
      expect(res.status, method).toBe(404);
    }
    const head = await rawRequest(srv.url, 'HEAD', path, tus(alice.token));
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
  });

  it('refuses a video id that belongs to another user', async () => {
    const meta = videoMetadata();
    await createUploadRaw(srv.url, alice.token, 1000, meta);
    const res = await fetch(`${srv.url}/files/`, {
      method: 'POST',
      headers: tus(bob.token, { 'Upload-Length': '1000', 'Upload-Metadata': encodeMetadata(meta) }),
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as any).error.code).toBe('video_id_taken');
  });

  it('requires a signed-in, active, paid-up user on every tus request', async () => {
    const path = await createUploadRaw(srv.url, alice.token, 1000);
    const suspended = await createUser(t.deps, { isActive: false });
    const unpaid = await createUser(t.deps, { status: 'pending_payment' });
    const create = (token: string | null) =>
      fetch(`${srv.url}/files/`, { method: 'POST', headers: tus(token, { 'Upload-Length': '10', 'Upload-Metadata': encodeMetadata(videoMetadata()) }) });
    const cases: Array<[string | null, number, string]> = [
      [null, 401, 'unauthorized'],
      ['not.a.token', 401, 'invalid_token'],
      [suspended.token, 403, 'account_suspended'],
      [unpaid.token, 403, 'payment_required'],
    ];
    for (const [token, status, code] of cases) {
      const res = await create(token);
      expect(res.status).toBe(status);
      expect(((await res.json()) as any).error.code).toBe(code);
      const head = await rawRequest(srv.url, 'HEAD', path, tus(token));
      expect(head.status).toBe(status);
    }
    // A user suspended mid-upload is stopped at the next request.
    await t.deps.db.updateTable('profiles').set({ is_active: 0 }).where('id', '=', alice.id).execute();
    const patch = await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
      new Uint8Array(10),
    );
    expect(patch.status).toBe(403);
    await t.deps.db.updateTable('profiles').set({ is_active: 1 }).where('id', '=', alice.id).execute();
    expect((await rawRequest(srv.url, 'HEAD', path, tus(alice.token))).headers['upload-offset']).toBe('0');
  });

  it('terminates an upload (DELETE): its bytes are removed and it answers 410 afterwards', async () => {
    const path = await createUploadRaw(srv.url, alice.token, 1000);
    const id = path.split('/').pop()!;
    await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
      new Uint8Array(200),
    );
    expect(await uploadFiles(id)).not.toEqual([]);
    const del = await rawRequest(srv.url, 'DELETE', path, tus(alice.token));
    expect(del.status).toBe(204);
    expect(await uploadFiles(id)).toEqual([]);
    expect((await rawRequest(srv.url, 'HEAD', path, tus(alice.token))).status).toBe(410);
    const row = await t.deps.db.selectFrom('uploads').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
  });

  it('expires uploads left unfinished for 24 hours: files removed, rows marked expired', async () => {
    // A refused upload that had a poster: the poster goes a day later too.
    const refusedMeta = videoMetadata();
    await createUploadRaw(srv.url, alice.token, 10, refusedMeta);
    const jpeg = readFileSync(await posterJpeg());
    const put = await fetch(`${srv.url}/api/videos/${refusedMeta.videoId}/poster`, {
      method: 'PUT',
      body: jpeg,
      headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'image/jpeg' },
    });
    const posterKey = ((await put.json()) as any).poster_url.replace('/media/', '');
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes: readFileSync(await textAsMp4()), metadata: refusedMeta }).catch(() => undefined);
    expect(await mediaExists(t.deps, posterKey)).toBe(true);

    const path = await createUploadRaw(srv.url, alice.token, 1000);
    const id = path.split('/').pop()!;
    await rawRequest(
      srv.url,
      'PATCH',
      path,
      tus(alice.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
      new Uint8Array(300),
    );
    const fresh = await cleanUpExpiredUploads(t.deps);
    expect(fresh.rows).toBe(0);
    expect(await uploadFiles(id)).not.toEqual([]);

    // 25 hours later. The file store reads its own creation date from the upload's .json, which is
    // moved back too; on S3 the store's expiry reads the multipart upload's start from the gateway,
    // which a test cannot move, and the expired rows' removal below does the work.
    if (t.deps.config.storage.kind === 'disk') {
      const infoFile = join(t.deps.config.uploadsDir, `${id}.json`);
      const info = JSON.parse(readFileSync(infoFile, 'utf8'));
      info.creation_date = new Date(Date.now() - 25 * 3600_000).toISOString();
      writeFileSync(infoFile, JSON.stringify(info));
    }
    t.advance(25 * 3600_000);
    const token = (await t.deps.tokens.issue(alice.id)).token;
    const result = await cleanUpExpiredUploads(t.deps);
    if (t.deps.config.storage.kind === 'disk') expect(result.files).toBeGreaterThanOrEqual(1);
    expect(result.rows).toBeGreaterThanOrEqual(1);
    expect(await uploadFiles(id)).toEqual([]);
    expect((await t.deps.db.selectFrom('uploads').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('expired');
    expect(await mediaExists(t.deps, posterKey)).toBe(false);
    const head = await rawRequest(srv.url, 'HEAD', path, tus(token));
    expect(head.status).toBe(410);
    expect(JSON.parse((await rawRequest(srv.url, 'DELETE', path, tus(token))).body).error.code).toBe('upload_expired');
  });

  it('offers only the tus methods, and OPTIONS advertises the limits without a token', async () => {
    const opts = await rawRequest(srv.url, 'OPTIONS', '/files/', {});
    expect(opts.status).toBe(204);
    expect(opts.headers['tus-max-size']).toBe('125829120');
    expect(String(opts.headers['tus-extension'])).toMatch(/creation.*termination.*expiration|creation/);
    expect(String(opts.headers['tus-extension'])).not.toMatch(/defer/);
    const get = await rawRequest(srv.url, 'GET', '/files/', tus((await t.deps.tokens.issue(alice.id)).token));
    expect(get.status).toBe(405);
  });
  describe('the /files listener', () => {
    /** One request on a keep-alive agent with a single socket, so the next one must reuse it. */
    const onAgent = (agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<{ status: number; reused: boolean; body: string }>((ok, fail) => {
        const req = httpRequest(`${srv.url}${path}`, { method, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, reused: req.reusedSocket, body: Buffer.concat(chunks).toString() }));
        });
        req.on('error', fail);
        req.end(body);
      });

    // Earlier tests move the clock on: a token from the server's own clock.
    const token = async () => (await t.deps.tokens.issue(alice.id)).token;

    it('answers PATCHes it refuses before reading their bodies, and the connection stays usable', async () => {
      const aliceToken = await token();
      const path = await createUploadRaw(srv.url, aliceToken, 4 * 1024 * 1024);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const body = Buffer.alloc(3 * 1024 * 1024, 7);
        // Refused by our checks before tus (wrong content type): the answer keeps the connection.
        const wrongType = await onAgent(agent, 'PATCH', path, tus(aliceToken, { 'Upload-Offset': '0', 'Content-Type': 'application/octet-stream' }), body);
        expect(wrongType.status).toBe(415);
        expect(JSON.parse(wrongType.body).error.code).toBe('unsupported_media_type');
        // The unread 3 MiB were drained, not left blocking the socket: the next request is answered on it.
        const head = await onAgent(agent, 'HEAD', path, tus(aliceToken));
        expect(head).toMatchObject({ status: 200, reused: true });
        // Refused by tus (wrong offset): it closes the connection itself; the answer still arrives.
        const wrongOffset = await onAgent(
          agent,
          'PATCH',
          path,
          tus(aliceToken, { 'Upload-Offset': '1000', 'Content-Type': 'application/offset+octet-stream' }),
          body,
        );
        expect(wrongOffset.status).toBe(409);
        expect(JSON.parse(wrongOffset.body).error.code).toBe('offset_conflict');
        const ok = await onAgent(agent, 'PATCH', path, tus(aliceToken, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }), body);
        expect(ok.status).toBe(204);
        expect((await rawRequest(srv.url, 'HEAD', path, tus(aliceToken))).headers['upload-offset']).toBe(String(body.length));
      } finally {
        agent.destroy();
      }
    });

    it('closes the connection after refusing a PATCH whose unread body is larger than the drain bound', async () => {
      const aliceToken = await token();
      const path = await createUploadRaw(srv.url, aliceToken, 32 * 1024 * 1024);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // 16 MiB declared, 1 MiB sent: the refusal does not wait for the rest, and says so.
        const refused = await new Promise<{ status: number; connection: string | undefined }>((ok, fail) => {
          const headers = tus(aliceToken, { 'Upload-Offset': '0', 'Content-Type': 'application/octet-stream', 'Content-Length': String(16 * 1024 * 1024) });
          const req = httpRequest(`${srv.url}${path}`, { method: 'PATCH', headers, agent }, (res) => {
            res.resume();
            res.on('end', () => ok({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : fail(e)));
          req.write(Buffer.alloc(1024 * 1024, 7));
        });
        expect(refused).toEqual({ status: 415, connection: 'close' });
        // The agent knows not to reuse that connection: the next request is answered on a new one.
        const head = await onAgent(agent, 'HEAD', path, tus(aliceToken));
        expect(head).toMatchObject({ status: 200, reused: false });
      } finally {
        agent.destroy();
      }
    });

    it('refuses a Host header that makes no URL with 400 JSON', async () => {
      const aliceToken = await token();
      const r = await rawRequest(srv.url, 'HEAD', '/files/0123456789abcdef0123456789abcdef', { ...tus(aliceToken), Host: '[not-a-host' });
      expect(r.status).toBe(400);
      const post = await rawRequest(srv.url, 'POST', '/files/', { ...tus(aliceToken), Host: '[not-a-host', 'Upload-Length': '10' });
      expect(post.status).toBe(400);
      expect(JSON.parse(post.body).error.code).toBe('bad_request');
    });
  });
});
