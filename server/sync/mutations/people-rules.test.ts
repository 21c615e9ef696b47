import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MutationError } from '#sync/protocol/error-codes';
import { handleRaceLost } from './people-rules';

// The race of two members setting one handle ends in the unique index on both engines: that error,
// and only that one, is the caller's handle_taken (the PostgreSQL race itself: tests/integration/people-mutations.test.ts).

function sqliteError(sql: string): unknown {
  const db = new Database(':memory:');
  db.exec('create table profiles(id text primary key, email text unique, handle text); create unique index profiles_handle on profiles(handle)');
  db.exec("insert into profiles values ('a', 'a@x.test', 'asha'), ('b', 'b@x.test', 'bob')");
  try {
    db.exec(sql);
  } catch (err) {
    return err;
  } finally {
    db.close();
  }
  throw new Error('no error');
}

describe('handleRaceLost', () => {
  it("is handle_taken for SQLite's and PostgreSQL's unique violation of profiles_handle", () => {
    for (const err of [
      sqliteError("update profiles set handle = 'asha' where id = 'b'"),
      Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'profiles_handle' }),
    ]) {
      const refusal = handleRaceLost(err);
      expect(refusal).toBeInstanceOf(MutationError);
      expect(refusal).toMatchObject({ code: 'handle_taken', message: 'That handle is taken.' });
    }
  });

  it('leaves every other error as it was (another unique index, another fault)', () => {
    const others = [
      sqliteError("update profiles set email = 'a@x.test' where id = 'b'"),
      Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'profiles_email_key' }),
      Object.assign(new Error('deadlock'), { code: '40P01' }),
      new Error('boom'),
    ];
    for (const err of others) expect(handleRaceLost(err)).toBe(err);
  });
});
