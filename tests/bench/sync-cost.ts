import { randomUUID } from 'node:crypto';
import { openDatabase } from '#db/connect';
import { ratioRow, unavailable, type BenchRow } from './lib/result';
import { assertClean, interleaved, load } from './lib/load';
import { median } from './lib/stats';
import { probe, type Benchmark, type BenchContext } from './lib/context';
import { readSseEvents } from '../helpers/sse';

/**
 * 3b. What keeping clients in sync costs the server, per request and per open connection (report
 * rows, no target; run on both engines to compare them):
 * - a pull with nothing new (what every flush and reconnect sends) and a first pull (the snapshot
 *   a new device loads), in req/s at 10 connections, against GET /api/health on the same server:
 *   the ratio is the share of the floor the pull's reads leave;
 * - a like's poke reaching every open event stream: from the push sent to the poke read on the
 *   last of N streams, against the same with one stream open. Each stream is its own member, so
 *   each poke carries that member's delta (docs/sync.md, "Live"); (N-stream time - 1-stream time)
 *   / (N - 1) is the cost one more connection adds to every change.
 */
export const syncCost: Benchmark = {
  id: 'sync',
  title: 'Sync cost: pull and poke delta',
  async run(ctx) {
    const token = await ctx.token();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const first = await probe(`${ctx.server.url}/api/sync/pull`, { method: 'POST', headers: auth, body: JSON.stringify({ cursor: null }) });
    if (first.status !== 200) {
      const why = `POST /api/sync/pull answered ${first.status}`;
      return [
        unavailable('Sync: pull, nothing new', 'req/s', 'report', why),
        unavailable('Sync: pull, first (snapshot)', 'req/s', 'report', why),
        unavailable('Sync: poke to the last open stream', 'ms', 'report', why),
      ];
    }
    const { cursor } = JSON.parse(first.text) as { cursor: string };
    const rows = await pullRows(ctx, auth, cursor, first.text.length);
    rows.push(await pokeRow(ctx));
    return rows;
  },
};

async function pullRows(ctx: BenchContext, auth: Record<string, string>, cursor: string, snapshotBytes: number): Promise<BenchRow[]> {
  const pull = (body: unknown) => async () => {
    const url = `${ctx.server.url}/api/sync/pull`;
    const r = await load({ url, seconds: ctx.seconds, connections: 10, method: 'POST', headers: auth, body: JSON.stringify(body) });
    assertClean(url, r);
    return r.rps;
  };
  const health = async () => {
    const url = `${ctx.server.url}/api/health`;
    const r = await load({ url, seconds: ctx.seconds, connections: 10 });
    assertClean(url, r);
    return r.rps;
  };
  const rows: BenchRow[] = [];
  for (const [name, body, note] of [
    ['Sync: pull, nothing new', { cursor }, 'cursor at the head'],
    ['Sync: pull, first (snapshot)', { cursor: null }, `cursor null, ${Math.round(snapshotBytes / 1024)} KB answer`],
  ] as const) {
    const s = await interleaved(ctx.rounds, pull(body), health);
    const ms = 1000 / median(s.ours);
    rows.push(
      ratioRow(
        { name, unit: 'req/s', direction: 'higher', notes: `${note}; ${ms.toFixed(2)} ms of server per pull; vs GET /api/health, 10 conns` },
        s.ours,
        s.base,
      ),
    );
  }
  return rows;
}

interface Stream {
  pokes: Array<{ t: number; delta: boolean }>;
  ready: Promise<void>;
  close(): void;
}

/** An event stream read as the client reads it; each poke's arrival time is noted. */
async function openStream(url: string, token: string): Promise<Stream> {
  const ctl = new AbortController();
  const res = await fetch(`${url}/api/sync/events?client_id=${randomUUID()}`, { headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
  if (res.status !== 200 || !res.body) throw new Error(`GET /api/sync/events answered ${res.status}`);
  const pokes: Stream['pokes'] = [];
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((ok) => (onReady = ok));
  void readSseEvents(res.body, ({ event, data }, at) => {
    if (event === 'ready') onReady();
    if (event === 'poke') pokes.push({ t: at, delta: data.includes('"delta"') });
  });
  return { pokes, ready, close: () => ctl.abort() };
}

/** Members to listen as (one stream each), a member to like as, and a video that member has not liked. */
async function actors(ctx: BenchContext, listeners: number): Promise<{ listeners: string[]; liker: string; videoId: string }> {
  const { db, close } = openDatabase(ctx.databaseUrl);
  try {
    const ids = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('is_active', '=', 1)
        .orderBy('created_at', 'desc')
        .limit(listeners + 1)
        .execute()
    ).map((r) => r.id);
    if (ids.length < listeners + 1) throw new Error(`the seed has fewer than ${listeners + 1} members`);
    const liker = ids[0]!;
    const video = await db
      .selectFrom('videos')
      .select('id')
      .where('media_status', '=', 'ready')
      .where('id', 'not in', db.selectFrom('likes').select('video_id').where('user_id', '=', liker))
      .limit(1)
      .executeTakeFirstOrThrow();
    return { listeners: ids.slice(1), liker, videoId: video.id };
  } finally {
    await close();
  }
}

async function pokeRow(ctx: BenchContext): Promise<BenchRow> {
  const name = 'Sync: poke to the last open stream';
  const n = ctx.quick ? 20 : 50;
  const pushes = ctx.quick ? 5 : 10;
  const who = await actors(ctx, n);
  const tokens = await Promise.all(who.listeners.map((id) => ctx.token(id)));
  const likerToken = await ctx.token(who.liker);
  const clientId = randomUUID();
  let nextId = 1;
  let liked = false;
  const push = async () => {
    const m = { id: nextId++, name: liked ? 'unlike' : 'like', args: { videoId: who.videoId } };
    liked = !liked;
    const res = await fetch(`${ctx.server.url}/api/sync/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${likerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, mutations: [m] }),
    });
    if (res.status !== 200) throw new Error(`push answered ${res.status}`);
    await res.text();
  };
  let deltas = 0;
  let pokes = 0;
  /** Median over `pushes` likes of push sent -> poke read on the last of `count` streams. */
  const side = (count: number) => async () => {
    const streams = await Promise.all(tokens.slice(0, count).map((t) => openStream(ctx.server.url, t)));
    try {
      await Promise.all(streams.map((s) => s.ready));
      await new Promise((r) => setTimeout(r, 200));
      const spans: number[] = [];
      for (let i = 0; i < pushes; i++) {
        const seen = streams.map((s) => s.pokes.length);
        const t0 = performance.now();
        await push();
        const deadline = Date.now() + 10_000;
        while (streams.some((s, k) => s.pokes.length <= seen[k]!)) {
          if (Date.now() > deadline) throw new Error('a poke did not reach every stream within 10 s');
          await new Promise((r) => setTimeout(r, 1));
        }
        const arrivals = streams.map((s, k) => s.pokes[seen[k]!]!);
        deltas += arrivals.filter((a) => a.delta).length;
        pokes += arrivals.length;
        spans.push(Math.max(...arrivals.map((a) => a.t)) - t0);
        await new Promise((r) => setTimeout(r, 100));
      }
      return median(spans);
    } finally {
      for (const s of streams) s.close();
    }
  };
  const s = await interleaved(ctx.rounds, side(n), side(1));
  const perConnection = (median(s.ours) - median(s.base)) / (n - 1);
  return ratioRow(
    {
      name,
      unit: 'ms',
      direction: 'lower',
      notes: `${n} streams (one member each) vs 1, ${pushes} likes a round; ${perConnection.toFixed(2)} ms per extra stream; ${deltas}/${pokes} pokes carried a delta`,
    },
    s.ours,
    s.base,
  );
}
