import { comments, likes } from '#sync/entities/registry';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import type { Logger } from '../logger';
import { createPokes } from './pokes';
import { writeTx, type WriteDeps } from './write-tx';

describe('writeTx', () => {
  let dir: string;
  let handle: DbHandle;
  let deps: WriteDeps;
  let pokes: Array<{ scopes: string[]; origin: string | undefined }>;
  let errors: unknown[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidi-write-tx-'));
    handle = openDatabase(join(dir, 'db.sqlite'));
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await handle.db.deleteFrom('change_log').execute();
    const p = createPokes();
    pokes = [];
    errors = [];
    p.subscribe((scopes, origin) => pokes.push({ scopes, origin }));
    const log: Logger = { error: (_message, err) => void errors.push(err), info: () => {}, debug: () => {} };
    deps = { db: handle.db, pokes: p, log, now: () => 1_000 };
  });

  const logRows = () =>
    handle.db.selectFrom('change_log').select(['entity', 'entity_id', 'video_id', 'user_id', 'deleted', 'created_at']).orderBy('seq').execute();

  it('writes the declared changes in the transaction and pokes their scopes once, after the commit, with the origin', async () => {
    let pokedInside = -1;
    await writeTx(
      deps,
      async (_trx, changes) => {
        changes
          .row(likes, { video_id: 'v1', user_id: 'u1', created_at: 0 })
          .row(comments, {
            id: 'c1',
            video_id: 'v1',
            user_id: 'u1',
            content: '',
            created_at: 0,
            parent_id: null,
            reply_to_user_id: null,
            deleted: 0,
            pinned: 0,
            reply_count: 0,
          })
          .profile('u1', { shown: true });
        pokedInside = pokes.length;
      },
      { origin: 'u1' },
    );
    expect(pokedInside).toBe(0);
    expect(await logRows()).toEqual([
      { entity: 'like', entity_id: 'v1:u1', video_id: 'v1', user_id: 'u1', deleted: 0, created_at: 1_000 },
      { entity: 'comment', entity_id: 'c1', video_id: 'v1', user_id: 'u1', deleted: 0, created_at: 1_000 },
      { entity: 'profile', entity_id: 'u1', video_id: null, user_id: 'u1', deleted: 0, created_at: 1_000 },
    ]);
    expect(pokes).toEqual([{ scopes: ['video:v1', 'feed'], origin: 'u1' }]);
  });

  it('a private change reaches only its member; a deleted video reaches every feed', async () => {
    await writeTx(deps, async (_trx, changes) => {
      changes.profile('u2');
    });
    await writeTx(deps, async (_trx, changes) => {
      changes.videoListed('v9', { deleted: true });
    });
    expect(pokes.map((p) => p.scopes)).toEqual([['user:u2'], ['feed', 'video:v9']]);
    expect((await logRows()).at(-1)).toMatchObject({ entity: 'video', entity_id: 'v9', video_id: null, deleted: 1 });
  });

  it('writes nothing, pokes nothing and runs no task when the work throws', async () => {
    let ran = false;
    await expect(
      writeTx(deps, async (trx, changes) => {
        await trx.insertInto('change_log').values({ entity: 'video', entity_id: 'x', video_id: null, user_id: null, deleted: 0, created_at: 1 }).execute();
        changes.leaderboard().afterCommit(() => {
          ran = true;
        });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await logRows()).toEqual([]);
    expect(pokes).toEqual([]);
    expect(ran).toBe(false);
  });

  it('runs the tasks after the commit; a failing task is logged and the write stands', async () => {
    const order: string[] = [];
    const result = await writeTx(deps, async (_trx, changes) => {
      changes
        .settings()
        .afterCommit(() => {
          order.push(`task sees ${pokes.length} poke(s)`);
          throw new Error('disk gone');
        })
        .afterCommit(() => void order.push('second task'));
      return 'kept';
    });
    expect(result).toBe('kept');
    expect(order).toEqual(['task sees 1 poke(s)', 'second task']);
    expect(errors).toHaveLength(1);
    expect(await logRows()).toHaveLength(1);
  });
});
