import pg from 'pg';
import type { Toggler } from './push';

// The PostgreSQL side of the push benchmark's baseline (push.ts): what the server's push path must
// at least do for a like or an unlike, written with plain pg.

const BATCH = 100;

/** Members and their not-yet-liked videos, read the way push.ts reads them on SQLite. */
export async function postgresPushSetup(url: string): Promise<{
  members(n: number): Promise<string[]>;
  freshVideos(userId: string, limit: number): Promise<string[]>;
  close(): Promise<void>;
}> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return {
    members: async (n) =>
      (await pool.query<{ id: string }>('SELECT id FROM profiles WHERE is_active = 1 ORDER BY created_at LIMIT $1', [n])).rows.map((r) => r.id),
    freshVideos: async (userId, limit) =>
      (
        await pool.query<{ id: string }>('SELECT id FROM videos WHERE id NOT IN (SELECT video_id FROM likes WHERE user_id = $1) ORDER BY random() LIMIT $2', [
          userId,
          limit,
        ])
      ).rows.map((r) => r.id),
    close: () => pool.end(),
  };
}

type Like = { name: 'like' | 'unlike'; videoId: string };

/**
 * One transaction of likes and unlikes: the rows in order, then the counters in video id order.
 * Members' pools overlap, so counters updated in the batch's order would deadlock between two
 * transactions (and PostgreSQL finds a deadlock only after deadlock_timeout, 1 s); one ordered lock
 * sequence cannot. A deadlock anyway (40P01) runs the transaction again, as the server's push does.
 */
async function transaction(c: pg.Client, userId: string, batch: Like[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await c.query('BEGIN');
      const now = Date.now();
      for (const m of batch) {
        if (m.name === 'like') {
          await c.query({ name: 'ins', text: 'INSERT INTO likes (video_id, user_id, created_at) VALUES ($1, $2, $3)', values: [m.videoId, userId, now] });
        } else {
          await c.query({ name: 'del', text: 'DELETE FROM likes WHERE video_id = $1 AND user_id = $2', values: [m.videoId, userId] });
        }
      }
      for (const m of [...batch].sort((a, b) => (a.videoId < b.videoId ? -1 : a.videoId > b.videoId ? 1 : 0))) {
        await c.query({ name: 'inc', text: 'UPDATE videos SET likes_count = likes_count + $1 WHERE id = $2', values: [m.name === 'like' ? 1 : -1, m.videoId] });
      }
      await c.query('COMMIT');
      return;
    } catch (e) {
      await c.query('ROLLBACK');
      if ((e as { code?: string }).code !== '40P01' || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** Math.min(attempt, 3)));
    }
  }
}

/**
 * The raw baseline on PostgreSQL: each client on its own connection (as the 4 pushing members
 * share the server's pool), transactions of 100 likes/unlikes, each the row and the counter update (ordered, above),
 * as named prepared statements; at PostgreSQL's default durability (a commit waits for its flush),
 * as the server's. Returns rows per second over all clients.
 */
export async function rawPostgresFor(url: string, clients: Array<{ id: string; tog: Toggler }>, seconds: number): Promise<number> {
  const conns = await Promise.all(
    clients.map(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  try {
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    const done = await Promise.all(
      clients.map(async (client, k) => {
        const c = conns[k]!;
        let rows = 0;
        while (performance.now() < deadline) {
          const batch = Array.from({ length: BATCH }, () => client.tog.next());
          await transaction(c, client.id, batch);
          rows += BATCH;
        }
        return rows;
      }),
    );
    return done.reduce((a, b) => a + b, 0) / ((performance.now() - t0) / 1000);
  } finally {
    await Promise.all(conns.map((c) => c.end()));
  }
}
