import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '#db/connect';
import { emptyDatabase } from '../helpers/empty-database';
import { HANDLE_PATTERN, RESERVED_HANDLES } from '#sync/protocol/handles';

describe('migration 0014: every existing member gets a handle', () => {
  it('derives one from the name, oldest member first, with digits where it is taken, never a reserved word', async () => {
    const { db } = await emptyDatabase();
    await migrateTo(db, '0013_push_sessions');
    const names = ['Asha Rao', 'asha  RAO', 'Asha-Rao!', 'Admin', '李小龙', 'Jo', '9 Lives', 'A'.repeat(80)];
    for (const [i, name] of names.entries())
      await sql`insert into profiles (id, email, name, is_admin, is_active, account_status, created_at, updated_at)
        values (${`u${i}`}, ${`u${i}@example.test`}, ${name}, 0, 1, 'active', ${1000 + i}, ${1000 + i})`.execute(db);

    await migrateToLatest(db);

    const rows = await db.selectFrom('profiles').select(['id', 'handle', 'followers_count', 'following_count']).orderBy('created_at').execute();
    const handles = rows.map((r) => r.handle);
    expect(handles.slice(0, 3)).toEqual(['asha_rao', 'asha_rao2', 'asha_rao3']);
    expect(new Set(handles).size).toBe(names.length);
    for (const h of handles) {
      expect(h, h).toMatch(HANDLE_PATTERN);
      expect(RESERVED_HANDLES.has(h), h).toBe(false);
    }
    expect(rows.every((r) => r.followers_count === 0 && r.following_count === 0)).toBe(true);
    // The unique index: a second member cannot take a handle already held.
    await expect(db.updateTable('profiles').set({ handle: 'asha_rao' }).where('id', '=', 'u1').execute()).rejects.toThrow();
  });
});
