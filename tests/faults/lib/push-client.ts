import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Mutation {
  name: string;
  args: Record<string, unknown>;
}

export interface PushStats {
  batches: number;
  /** Requests sent, replays included. */
  attempts: number;
  /** Sends of a batch after a failed attempt (cut, reset, stall, server down). */
  replays: number;
  applied: number;
  duplicate: number;
  rejected: number;
}

/**
 * A raw HTTP client that pushes like the PWA's outbox does: numbered mutations per client id, and
 * after any failure (connection cut, reset, timeout, server gone) it sends the SAME batch again
 * until it gets an answer. Only a 200 acknowledges; a 4xx/5xx is a test failure, not a retry.
 */
export class ReplayingPushClient {
  readonly clientId = randomUUID();
  private nextId = 1;
  /** Mutation ids the server acknowledged (applied or duplicate), with their mutation. */
  readonly acknowledged = new Map<number, Mutation>();
  readonly stats: PushStats = { batches: 0, attempts: 0, replays: 0, applied: 0, duplicate: 0, rejected: 0 };

  constructor(
    private readonly origin: () => string,
    private readonly token: string,
    private readonly opts: { timeoutMs?: number; giveUpAfterMs?: number } = {},
  ) {}

  async push(mutations: Mutation[]): Promise<void> {
    const batch = mutations.map((m) => ({ id: this.nextId++, name: m.name, args: m.args }));
    const body = JSON.stringify({ client_id: this.clientId, mutations: batch });
    const started = Date.now();
    this.stats.batches++;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        this.stats.replays++;
        await sleep(Math.min(50 * 2 ** Math.min(attempt, 5), 1000));
      }
      if (Date.now() - started > (this.opts.giveUpAfterMs ?? 60_000)) throw new Error(`push of ${batch.length} mutations did not get through in time`);
      this.stats.attempts++;
      let status: number;
      let text: string;
      try {
        const res = await fetch(`${this.origin()}/api/sync/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
          body,
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
        });
        status = res.status;
        text = await res.text();
      } catch {
        continue;
      }
      if (status !== 200) throw new Error(`push answered ${status}: ${text.slice(0, 300)}`);
      let parsed: { results: Array<{ id: number; status: string }>; last_mutation_id: number };
      try {
        parsed = JSON.parse(text);
      } catch {
        continue;
      }
      for (const r of parsed.results) {
        if (r.status === 'rejected') {
          this.stats.rejected++;
          throw new Error(`mutation ${r.id} rejected: ${JSON.stringify(r)}`);
        }
        if (r.status === 'applied') this.stats.applied++;
        else this.stats.duplicate++;
        const m = batch.find((b) => b.id === r.id);
        if (m) this.acknowledged.set(r.id, { name: m.name, args: m.args as Record<string, unknown> });
      }
      // A prefix answer (the server stopped early) leaves the rest queued: send it again.
      if (parsed.last_mutation_id >= batch[batch.length - 1]!.id) return;
    }
  }

  get lastId(): number {
    return this.nextId - 1;
  }
}

/**
 * Mutations whose double application would show: toggling likes on a few videos (an unlike
 * replayed after a later like would lose it), and comments with fresh ids (counted per video).
 * The model records the state they must leave behind.
 */
export class MutationModel {
  readonly liked = new Map<string, Set<string>>();
  readonly comments = new Map<string, string>();

  /** `likes`: what each member has liked before the test (from the database). */
  constructor(
    private readonly videos: string[],
    likes: Map<string, Set<string>>,
    private readonly random: () => number = Math.random,
  ) {
    for (const [u, s] of likes) this.liked.set(u, new Set(s));
  }

  next(userId: string, n: number): Mutation[] {
    const out: Mutation[] = [];
    let set = this.liked.get(userId);
    if (!set) this.liked.set(userId, (set = new Set()));
    for (let i = 0; i < n; i++) {
      const videoId = this.videos[Math.floor(this.random() * Math.min(this.videos.length, 20))]!;
      if (this.random() < 0.3) {
        const commentId = randomUUID();
        this.comments.set(commentId, videoId);
        out.push({ name: 'addComment', args: { commentId, videoId, content: `fault test ${commentId.slice(0, 8)}` } });
      } else if (set.has(videoId)) {
        set.delete(videoId);
        out.push({ name: 'unlike', args: { videoId } });
      } else {
        set.add(videoId);
        out.push({ name: 'like', args: { videoId } });
      }
    }
    return out;
  }
}
