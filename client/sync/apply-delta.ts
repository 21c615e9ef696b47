import type { PokeDelta } from '#sync/protocol/messages';
import { runTx } from './tx-queue';
import { getMeta, type ClientDb } from './db';
import { CURSOR_KEY, MAX_CACHED_VIDEOS, writePull } from './apply-pull';
import { readClientState } from './outbox';

/**
 * 'applied': the delta's rows are written and the cursor moved to its end. 'stale': the device is
 * already at or past its end (another tab, or a pull, got there first): nothing to do. 'gap': the
 * delta starts after the device's cursor (changes in between would be skipped), or its
 * last_mutation_id is about another client id: the caller must pull instead.
 */
export type DeltaOutcome = 'applied' | 'stale' | 'gap';

/**
 * Applies the rows a poke carried, in one transaction, exactly as a pull answer from `delta.from`
 * would be applied. A delta covers every change-log entry in (from, cursor] and its rows are read as
 * of `cursor`, so it is correct on top of any state whose cursor lies in [from, cursor]: the rows it
 * holds already changed at or before its own cursor, and the delta rewrites them as of `cursor`.
 */
export async function applyDelta(db: ClientDb, userId: string, delta: PokeDelta, now = Date.now(), cap = MAX_CACHED_VIDEOS): Promise<DeltaOutcome> {
  return runTx(db, async () => {
    const ids = delta.videos.map((v) => v.id);
    const [cursor, state, known] = await Promise.all([getMeta<string | null>(db, CURSOR_KEY), readClientState(db, userId), db.server_videos.bulkGet(ids)]);
    const current = cursor ?? null;
    if (current === null || !state || delta.client_id !== state.client_id) return 'gap';
    const clientId = state.client_id;
    const at = Number(current);
    if (at >= Number(delta.cursor)) return 'stale';
    if (at < Number(delta.from)) return 'gap';
    const held = new Set(ids.filter((_, i) => known[i] !== undefined));
    await writePull(db, userId, clientId, delta, now, cap, held);
    return 'applied';
  });
}
