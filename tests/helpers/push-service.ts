import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, createServer, globalAgent, type Server } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '#tests/support/postgres-cluster';
import { call, type TestApp } from './test-app';

// A local Web Push service: web-push-testing's (node_modules/web-push-testing/src), run in this
// process on 127.0.0.1 over TLS. web-push always speaks https (node_modules/web-push/src/web-push-lib.js
// calls https.request), so the service gets a self-signed certificate that this test process trusts
// through https' global agent, which web-push uses. Nothing leaves loopback.

const require = createRequire(import.meta.url);
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => PushModel };
const TestingServer = require('web-push-testing/src/server.js') as new (model: PushModel, port: number) => TestingServerShape;

interface PushModel {
  notifyUrl: string;
}
interface TestingServerShape {
  _app: Parameters<typeof createServer>[1];
  setRequestHandlers(): void;
}

/** A browser's PushSubscription.toJSON(), plus the service's handle on it. */
export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface PushService {
  origin: string;
  /** What a browser's pushManager.subscribe({ applicationServerKey }) gives. */
  subscribe(applicationServerKey: string): Promise<TestSubscription>;
  /** The decrypted payloads delivered to that subscription so far, parsed. */
  messages(sub: TestSubscription): Promise<any[]>;
  /** From now on the service answers 410 Gone for it (the device unsubscribed). */
  expire(sub: TestSubscription): Promise<void>;
  stop(): Promise<void>;
}

function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vidi-push-tls-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function postJson(origin: string, ca: string, path: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((ok, fail) => {
    const req = request(`${origin}${path}`, { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, json: text.startsWith('{') ? (JSON.parse(text) as unknown) : text }));
    });
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

export async function startPushService(): Promise<PushService> {
  const { key, cert } = selfSignedCert();
  const port = await freePort();
  const origin = `https://127.0.0.1:${port}`;
  const model = new PushApiModel();
  const testing = new TestingServer(model, port);
  testing.setRequestHandlers();
  // Its own notify URL says http://localhost; ours is served over TLS on the loopback address.
  model.notifyUrl = `${origin}/notify/`;
  const server: Server = createServer({ key, cert }, testing._app);
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const trusted = globalAgent.options.ca;
  globalAgent.options.ca = cert;
  return {
    origin,
    async subscribe(applicationServerKey) {
      const r = await postJson(origin, cert, '/subscribe', { userVisibleOnly: 'true', applicationServerKey });
      if (r.status !== 200) throw new Error(`subscribe failed: ${JSON.stringify(r.json)}`);
      return r.json.data as TestSubscription;
    },
    async messages(sub) {
      const r = await postJson(origin, cert, '/get-notifications', { clientHash: sub.clientHash });
      return (r.json.data.messages as string[]).map((m) => JSON.parse(m) as unknown);
    },
    async expire(sub) {
      await postJson(origin, cert, `/expire-subscription/${sub.clientHash}`, {});
    },
    stop: () =>
      new Promise<void>((ok) => {
        globalAgent.options.ca = trusted;
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** `author` comments on `videoId` through the sync push, as the app does: its owner's notification is then due at once. */
export async function commentAs(t: TestApp, author: { token: string }, videoId: string, content: string): Promise<void> {
  const mutation = { id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content } };
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [mutation] }, author.token);
  if (res.status !== 200 || res.json.results?.[0]?.error) throw new Error(`the comment was refused: ${res.text}`);
}

/** A device of `member` subscribed to pushes through the API, as the app does (GET /api/push/key, POST /api/push/subscriptions). */
export async function subscribeDevice(t: TestApp, svc: PushService, member: { token: string }): Promise<TestSubscription> {
  const key = await call(t.app, 'GET', '/api/push/key', undefined, member.token);
  if (key.status !== 200) throw new Error(`no push key: ${key.text}`);
  const sub = await svc.subscribe(key.json.public_key);
  const reg = await call(t.app, 'POST', '/api/push/subscriptions', { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }, member.token);
  if (reg.status !== 201) throw new Error(`the subscription was refused: ${reg.text}`);
  return sub;
}
