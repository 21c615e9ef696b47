import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { openSqlite as openDatabase } from '#db/connect';
import { ratioRow, unavailable } from './lib/result';
import { interleaved } from './lib/load';
import { probe, type Benchmark, type BenchContext } from './lib/context';
import { postgresPushSetup, rawPostgresFor } from './push-postgres';

const BATCH = 100;
const CLIENTS = 4;

/** Videos a member has not liked: likes that really insert a row, on both sides. */
function freshVideos(sqlite: SQLite.Database, userId: string, limit: number): string[] {
  return sqlite
    .prepare<[string, number], string>(`SELECT id FROM videos WHERE id NOT IN (SELECT video_id FROM likes WHERE user_id = ?) ORDER BY random() LIMIT ?`)
    .pluck()
    .all(userId, limit);
}

/** Cycles through a member's pool: a like while not liked yet, then an unlike on the next pass. */
export class Toggler {
  private i = 0;
  private readonly liked = new Set<string>();
  constructor(private readonly pool: string[]) {}
  next(): { name: 'like' | 'unlike'; videoId: string } {
    const videoId = this.pool[this.i++ % this.pool.length]!;
    if (this.liked.delete(videoId)) return { name: 'unlike', videoId };
    this.liked.add(videoId);
    return { name: 'like', videoId };
  }
}

/**
 * 3. Mutations per second through POST /api/sync/push in batches of 100 (4 clients at once, each
 * its own member and client id) vs raw better-sqlite3: the same like/unlike rows and counter
 * updates, 100 per transaction, on the same database file with the server's durability pragmas.
 * On PostgreSQL (`--db postgres`) the baseline is plain pg: 4 connections, the same transactions
 * of 100 (push-postgres.ts).
 */
export const push: Benchmark = {
  id: 'push',
  title: 'Push',
  async run(ctx) {
    const name = 'Push: mutations/s, batches of 100';
    const p = await probe(`${ctx.server.url}/api/sync/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await ctx.token()}` },
      body: JSON.stringify({ client_id: randomUUID(), mutations: [{ id: 1, name: 'updateProfileName', args: { name: 'Bench Viewer' } }] }),
    });
    if (p.status !== 200)
      return [unavailable(name, 'mut/s', '>= 0.3x', `POST /api/sync/push answered ${p.status}${p.status === 404 ? ' (sync not mounted)' : ''}`)];
    if (ctx.dialect === 'postgres') return pushOnPostgres(ctx, name);

    const handle = openDatabase(ctx.dbPath);
    try {
      const members = handle.engine.sqlite
        .prepare<[number], string>('SELECT id FROM profiles WHERE is_active = 1 ORDER BY created_at LIMIT ?')
        .pluck()
        .all(CLIENTS * 2 + 1)
        .slice(1);
      if (members.length < CLIENTS * 2) return [unavailable(name, 'mut/s', '>= 0.3x', 'the seed has too few members')];
      const poolSize = ctx.quick ? 2_000 : 20_000;
      const ours = await Promise.all(
        members.slice(0, CLIENTS).map(async (id) => ({ id, token: await ctx.token(id), tog: new Toggler(freshVideos(handle.engine.sqlite, id, poolSize)) })),
      );
      const base = members.slice(CLIENTS).map((id) => ({ id, tog: new Toggler(freshVideos(handle.engine.sqlite, id, poolSize)) }));

      const oursRound = () => pushFor(ctx, ours, ctx.seconds);
      const baseRound = async () => rawFor(handle.engine.sqlite, base, ctx.seconds);
      const s = await interleaved(ctx.rounds, oursRound, baseRound);
      return [ratioRow({ name, unit: 'mut/s', direction: 'higher', targetRatio: 0.3, notes: `${CLIENTS} clients, like/unlike` }, s.ours, s.base)];
    } finally {
      await handle.close();
    }
  },
};

async function pushOnPostgres(ctx: BenchContext, name: string) {
  const setup = await postgresPushSetup(ctx.databaseUrl);
  try {
    const members = (await setup.members(CLIENTS * 2 + 1)).slice(1);
    if (members.length < CLIENTS * 2) return [unavailable(name, 'mut/s', '>= 0.3x', 'the seed has too few members')];
    const poolSize = ctx.quick ? 2_000 : 20_000;
    const toggler = async (id: string) => new Toggler(await setup.freshVideos(id, poolSize));
    const ours = await Promise.all(members.slice(0, CLIENTS).map(async (id) => ({ id, token: await ctx.token(id), tog: await toggler(id) })));
    const base = await Promise.all(members.slice(CLIENTS).map(async (id) => ({ id, tog: await toggler(id) })));
    const s = await interleaved(
      ctx.rounds,
      () => pushFor(ctx, ours, ctx.seconds),
      () => rawPostgresFor(ctx.databaseUrl, base, ctx.seconds),
    );
    return [
      ratioRow({ name, unit: 'mut/s', direction: 'higher', targetRatio: 0.3, notes: `${CLIENTS} clients, like/unlike; baseline plain pg` }, s.ours, s.base),
    ];
  } finally {
    await setup.close();
  }
}

async function pushFor(ctx: BenchContext, clients: Array<{ token: string; tog: Toggler }>, seconds: number): Promise<number> {
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let applied = 0;
  await Promise.all(
    clients.map(async (c) => {
      const clientId = randomUUID();
      let nextId = 1;
      while (performance.now() < deadline) {
        const mutations = Array.from({ length: BATCH }, () => {
          const m = c.tog.next();
          return { id: nextId++, name: m.name, args: { videoId: m.videoId } };
        });
        const body = JSON.stringify({ client_id: clientId, mutations });
        const send = () =>
          fetch(`${ctx.server.url}/api/sync/push`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}` },
            body,
          });
        // A kept-alive socket the server just closed fails the request before it is sent; a
        // push is safe to replay (mutation ids), so send it again as the outbox would.
        const res = await send().catch(() => send());
        const answer = (await res.json()) as { results?: Array<{ status: string }> };
        if (res.status !== 200 || !answer.results) throw new Error(`push answered ${res.status}: ${JSON.stringify(answer).slice(0, 200)}`);
        const ok = answer.results.filter((r) => r.status === 'applied' || r.status === 'duplicate').length;
        if (ok !== BATCH) throw new Error(`push applied ${ok} of ${BATCH}: ${JSON.stringify(answer.results.find((r) => r.status !== 'applied'))}`);
        applied += ok;
      }
    }),
  );
  return applied / ((performance.now() - t0) / 1000);
}

function rawFor(sqlite: SQLite.Database, clients: Array<{ id: string; tog: Toggler }>, seconds: number): number {
  const ins = sqlite.prepare('INSERT INTO likes (video_id, user_id, created_at) VALUES (?, ?, ?)');
  const del = sqlite.prepare('DELETE FROM likes WHERE video_id = ? AND user_id = ?');
  const inc = sqlite.prepare('UPDATE videos SET likes_count = likes_count + ? WHERE id = ?');
  const batch = sqlite.transaction((userId: string, tog: Toggler) => {
    const now = Date.now();
    for (let i = 0; i < BATCH; i++) {
      const m = tog.next();
      if (m.name === 'like') ins.run(m.videoId, userId, now);
      else del.run(m.videoId, userId);
      inc.run(m.name === 'like' ? 1 : -1, m.videoId);
    }
  });
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let rows = 0;
  for (let k = 0; performance.now() < deadline; k++) {
    const c = clients[k % clients.length]!;
    batch(c.id, c.tog);
    rows += BATCH;
  }
  return rows / ((performance.now() - t0) / 1000);
}
