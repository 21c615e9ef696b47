import type { PokeDelta } from '#sync/protocol/messages';
import { applyDelta } from './apply-delta';
import { CURSOR_KEY } from './apply-pull';
import { WINDOW_FILL_KEY, windowRequest, type WindowFill } from './window-fill';
import { getMeta, setMeta, type ClientDb } from './db';
import { loadValidators, loadedValidators, type Validators } from './load-validators';
import { clientState } from './outbox';
import { TemporaryError, type Requester } from './sync-transport';
import { apiErrorFromResponse } from '../lib/http/api-error';
import { trace } from './trace';
import { runTx } from './tx-queue';
import { hintFirstPoster } from './poster-hint';
import { createPullApplier } from './pull-worker';

/**
 * Brings the server's changes in: pulls from the cursor (with the comment lists of the dialogs that
 * are open), or applies the deltas pokes carried, in order, when they are enough.
 */
export class Puller {
  /** Deltas carried by pokes, oldest first, waiting to be applied instead of a pull. */
  private deltas: PokeDelta[] = [];
  private readonly open = new Map<string, number>();
  private readonly loaded = new Set<string>();
  private readonly answers;

  constructor(
    private readonly db: ClientDb,
    private readonly userId: string,
    private readonly request: Requester,
  ) {
    this.answers = createPullApplier(db);
  }

  /** Ends the pull worker, if one runs. */
  close(): void {
    this.answers.close();
  }

  get hasDeltas(): boolean {
    return this.deltas.length > 0;
  }

  /** The deltas waiting, now taken: a pull covers every delta that arrived before it. */
  takeDeltas(): PokeDelta[] {
    return this.deltas.splice(0);
  }

  /** Follows a video's comments; returns whether its list must be loaded, and the unfollow function. */
  openComments(videoId: string): { load: boolean; close: () => void } {
    this.open.set(videoId, (this.open.get(videoId) ?? 0) + 1);
    const close = () => {
      const n = (this.open.get(videoId) ?? 1) - 1;
      if (n <= 0) {
        this.open.delete(videoId);
        // Reopening later reloads the whole list: changes while closed were not followed.
        this.loaded.delete(videoId);
      } else this.open.set(videoId, n);
    };
    return { load: !this.loaded.has(videoId), close };
  }

  /**
   * One pull; true when another is needed (the cursor was refused, another tab moved it first, or
   * the feed window has pages left to fetch: window-fill.ts).
   */
  async pull(): Promise<boolean> {
    const [cursor, fill] = await Promise.all([getMeta<string | null>(this.db, CURSOR_KEY), getMeta<WindowFill | null>(this.db, WINDOW_FILL_KEY)]);
    const { client_id } = await runTx(this.db, () => clientState(this.db, this.userId));
    const open = [...this.open.keys()];
    const body = {
      client_id,
      cursor: cursor ?? null,
      open_videos: open,
      load_comments: open.filter((id) => !this.loaded.has(id)),
      ...windowRequest(fill ?? null),
    };
    const res = await this.request('/api/sync/pull', { method: 'POST', body });
    if (res.status === 400 && (await apiErrorFromResponse(res)).code === 'invalid_cursor') {
      await setMeta(this.db, CURSOR_KEY, null);
      return true;
    }
    if (!res.ok) throw new TemporaryError(`pull answered ${res.status}`);
    const text = await res.text();
    // A snapshot's first card: its poster is asked for now, before the answer is validated and written.
    if (!fill) hintFirstPoster(text);
    const out = await this.answers.apply({ userId: this.userId, clientId: client_id, askedCursor: body.cursor, fill: fill ?? null, text, now: Date.now() });
    trace('pull:applied');
    if (!out.applied) return true;
    for (const id of out.commentsLoaded) if (this.open.has(id)) this.loaded.add(id);
    return out.more;
  }

  /**
   * Applies poke deltas in order; false when one cannot be (a gap, another client id, or comment
   * lists this tab follows, which only a pull with open_videos brings): then the caller pulls.
   */
  async applyDeltas(deltas: PokeDelta[]): Promise<boolean> {
    if (this.open.size > 0) return false;
    for (const delta of deltas) {
      if ((await applyDelta(this.db, this.userId, delta)) === 'gap') return false;
      trace('delta:applied');
    }
    return true;
  }

  /**
   * A poke: its delta is queued, then `queued` is called; without one (or unreadable), `needPull`.
   * Before the validators are in, pokes wait for the same promise, whose callbacks run in the
   * order they were added, so they keep their order.
   */
  onPoke(data: string, queued: () => void, needPull: () => void): void {
    const take = ({ PokeMessageSchema }: Validators) => {
      let delta: PokeDelta | undefined;
      try {
        delta = PokeMessageSchema.parse(JSON.parse(data)).delta;
      } catch {
        delta = undefined;
      }
      if (!delta) return needPull();
      this.deltas.push(delta);
      queued();
    };
    const ready = loadedValidators();
    if (ready) return take(ready);
    // Cannot read it without the validators: a pull brings the same rows (and retries the load).
    void loadValidators().then(take, needPull);
  }
}
