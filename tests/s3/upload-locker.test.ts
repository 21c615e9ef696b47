import { randomBytes } from 'node:crypto';
import { ERRORS } from '@tus/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '#tests/support/postgres-cluster';
import { createLogger } from '#server/logger';
import { PgUploadLocker } from '#server/uploads/upload-locker';
import { TEMPLATE_DATABASE } from '../helpers/test-database';

const id = () => randomBytes(16).toString('hex');

// Two lockers are two instances: each has its own pool and listening connection.
describe('PgUploadLocker: the tus lock of an upload across instances', () => {
  let url: string;
  let one: PgUploadLocker;
  let two: PgUploadLocker;

  beforeAll(async () => {
    const admin = inject('pgAdminUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    await createDatabase(admin, name, TEMPLATE_DATABASE);
    url = admin.replace(/\/[^/]*$/, `/${name}`);
    one = new PgUploadLocker(url, createLogger('silent'));
    two = new PgUploadLocker(url, createLogger('silent'), 2_000);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('makes a waiter on another instance ask the holder to let go, and hands the lock over once it does', async () => {
    const upload = id();
    const held = one.newLock(upload);
    let asked = 0;
    // As @tus/server does: on the request, the holder's request ends and unlocks.
    await held.lock(new AbortController().signal, () => {
      asked++;
      setTimeout(() => void held.unlock(), 50);
    });
    expect(one.heldIds()).toEqual([upload]);
    const started = Date.now();
    const waiting = two.newLock(upload);
    await waiting.lock(new AbortController().signal, () => undefined);
    const waited = Date.now() - started;
    expect(asked).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(50);
    expect(waited).toBeLessThan(1_000);
    expect(two.heldIds()).toEqual([upload]);
    expect(one.heldIds()).toEqual([]);
    await waiting.unlock();
  });

  it('gives up with tus lock timeout when the holder never lets go, and other uploads are not held up', async () => {
    const upload = id();
    const held = one.newLock(upload);
    await held.lock(new AbortController().signal, () => undefined);
    const other = two.newLock(id());
    await other.lock(new AbortController().signal, () => undefined);
    await other.unlock();
    const started = Date.now();
    await expect(two.newLock(upload).lock(new AbortController().signal, () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    await held.unlock();
  });

  it('frees the lock of a holder whose connection died (its process was killed)', async () => {
    const upload = id();
    const doomed = new PgUploadLocker(url, createLogger('silent'));
    let asked = 0;
    await doomed.newLock(upload).lock(new AbortController().signal, () => void asked++);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Every connection of the doomed locker ends, as a SIGKILL would end them.
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = (hashtextextended($1, 13) & x'ffffffff'::bigint)::oid",
        [upload],
      );
      expect(rows).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    const started = Date.now();
    const next = two.newLock(upload);
    await next.lock(new AbortController().signal, () => undefined);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The holder's request heard that its lock is gone (had its process lived on).
    expect(asked).toBe(1);
    await next.unlock();
    await doomed.close();
  });

  it('a lock taken and released in one process is free at once for the next request there', async () => {
    const upload = id();
    for (let i = 0; i < 5; i++) {
      const lock = one.newLock(upload);
      await lock.lock(new AbortController().signal, () => undefined);
      await lock.unlock();
    }
    expect(one.heldIds()).toEqual([]);
    await expect(one.newLock(upload).unlock()).rejects.toThrow(/unlocked/);
  });
});
