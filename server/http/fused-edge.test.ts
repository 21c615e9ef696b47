import { describe, expect, it } from 'vitest';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { fuseEdge, type Edge } from './fused-edge';

/** An app whose edge marks each answer, as the real one adds its headers: before and after the handler. */
function appWithEdge() {
  const app = new Hono();
  const middleware: MiddlewareHandler = async (c, next) => {
    c.header('x-edge', 'awaited');
    await next();
    c.res.headers.set('x-after', 'yes');
  };
  const after = (c: Context) => {
    c.res.headers.set('x-after', 'yes');
    return undefined;
  };
  const edge: Edge = {
    middleware,
    fusable: (method, path) => method === 'GET' && path.startsWith('/api/'),
    before: (c) => {
      if (c.req.header('origin')) return false;
      c.header('x-edge', 'fused');
      return true;
    },
    after,
  };
  app.use('*', middleware);
  app.get('/api/ok', (c) => c.json({ ok: true }));
  app.get('/api/slow', async (c) => c.json({ ok: await Promise.resolve(true) }));
  app.get('/api/throws', () => {
    throw new Error('boom');
  });
  app.get('/api/guarded', (_c, next) => next());
  app.get('/api/guarded', (c) => c.json({ ok: true }));
  app.post('/api/ok', (c) => c.json({ ok: true }));
  app.onError((err, c) => c.json({ error: err.message }, 500));
  fuseEdge(app, edge);
  return app;
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers });

describe('fuseEdge', () => {
  it('answers a fusable route synchronously, with the edge work before and after the handler', async () => {
    const app = appWithEdge();
    const res = app.fetch(get('/api/ok'));
    expect(res).toBeInstanceOf(Response);
    const answer = res as Response;
    expect(answer.headers.get('x-edge')).toBe('fused');
    expect(answer.headers.get('x-after')).toBe('yes');
    expect(await answer.json()).toEqual({ ok: true });
    // Twice: the fused route list is cached per route, and must serve a second request the same.
    expect((app.fetch(get('/api/ok')) as Response).headers.get('x-edge')).toBe('fused');
  });

  it('waits for an async handler and still runs the after-work', async () => {
    const res = await appWithEdge().fetch(get('/api/slow'));
    expect(res.headers.get('x-after')).toBe('yes');
    expect(await res.json()).toEqual({ ok: true });
  });

  it("turns a handler's error into the app's error answer, edge work included", async () => {
    const res = await appWithEdge().fetch(get('/api/throws'));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'boom' });
    expect(res.headers.get('x-edge')).toBe('fused');
    expect(res.headers.get('x-after')).toBe('yes');
  });

  it('runs the awaited middleware when before() declines, and leaves unfusable routes to compose', async () => {
    const app = appWithEdge();
    const withOrigin = await app.fetch(get('/api/ok', { origin: 'http://elsewhere.test' }));
    expect(withOrigin.headers.get('x-edge')).toBe('awaited');
    expect(withOrigin.headers.get('x-after')).toBe('yes');
    const post = await app.fetch(new Request('http://localhost/api/ok', { method: 'POST' }));
    expect(post.headers.get('x-edge')).toBe('awaited');
    const guarded = await app.fetch(get('/api/guarded'));
    expect(guarded.headers.get('x-edge')).toBe('awaited');
    expect(await guarded.json()).toEqual({ ok: true });
    expect((await app.fetch(get('/api/none'))).status).toBe(404);
  });
});
