import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversations, type Conversations } from '../helpers/conversations';
import { getJson, pulledNotifications } from '../helpers/safety';
import { call } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

// Issue 30's "Done when" for reports, through the real push and the admin API on SQLite and
// PostgreSQL: 20 members reporting one video at once make one queue entry (GET /api/admin/reports)
// with reports_count 20, and one resolve (POST /api/admin/reports/resolve) closes all 20 and tells
// each reporter the outcome with a `report_resolved` notification (docs/decisions/0024-safety.md).

let c: Conversations;
let owner: TestUser;
let admin: TestUser;
let reporters: TestUser[];
let videoId: string;

/** The reasons the 20 members give, in turn: 7 spam, 7 nudity, 6 violence. */
const REASONS = ['spam', 'nudity', 'violence'] as const;
const reasonOf = (i: number) => REASONS[i % REASONS.length]!;

beforeAll(async () => {
  c = await startConversations();
  [owner, reporters] = await Promise.all([c.member('Owner'), c.members(20, 'Reporter')]);
  admin = await createUser(c.t.deps, { name: 'Admin', isAdmin: true });
  videoId = await c.video(owner);
});
afterAll(async () => {
  await c?.close();
});

const reportsOf = (state: string) =>
  c.t.deps.db.selectFrom('reports').select(['reporter_id', 'state']).where('target_id', '=', videoId).where('state', '=', state).execute();

describe('20 reports of one video by 20 members', () => {
  beforeAll(async () => {
    const results = await Promise.all(
      reporters.map((r, i) => c.once(r, 'report', { reportId: randomUUID(), targetType: 'video', targetId: videoId, reason: reasonOf(i) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill('applied'));
  });

  it('appear as one queue entry with reports_count 20 and the reasons counted', async () => {
    const queue = await getJson(c, admin, '/api/admin/reports?state=open');
    expect(queue.next_cursor).toBeNull();
    expect(queue.items).toHaveLength(1);
    const [entry] = queue.items;
    expect(entry).toMatchObject({ target_type: 'video', target_id: videoId, state: 'open', reports_count: 20 });
    const reasons = [...entry.reasons].sort((a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code));
    expect(reasons).toEqual([
      { code: 'nudity', count: 7 },
      { code: 'spam', count: 7 },
      { code: 'violence', count: 6 },
    ]);
    expect(await reportsOf('open')).toHaveLength(20);
  });

  it('one resolve closes all 20 and notifies each reporter with report_resolved, and nobody else', async () => {
    const res = await call(c.t.app, 'POST', '/api/admin/reports/resolve', { targetType: 'video', targetId: videoId, action: 'remove' }, admin.token);
    expect(res.status, res.text).toBe(200);

    expect(await reportsOf('open')).toHaveLength(0);
    expect((await reportsOf('actioned')).map((r) => r.reporter_id).sort()).toEqual(reporters.map((r) => r.id).sort());
    expect((await getJson(c, admin, '/api/admin/reports?state=open')).items).toEqual([]);
    const actioned = await getJson(c, admin, '/api/admin/reports?state=actioned');
    expect(actioned.items).toEqual([expect.objectContaining({ target_type: 'video', target_id: videoId, state: 'actioned', reports_count: 20 })]);

    const told = await Promise.all(reporters.map(async (r) => (await pulledNotifications(c, r)).filter((n) => n.kind === 'report_resolved')));
    expect(told.map((n) => n.length)).toEqual(Array(20).fill(1));
    // Each is told what happened, and not who decided.
    expect(told.flat().map((n) => [n.detail, n.actor_name])).toEqual(Array(20).fill(['We removed the video you reported', null]));
    // The uploader is not told who reported, nor given a reporter's notification.
    expect((await pulledNotifications(c, owner)).filter((n) => n.kind === 'report_resolved')).toEqual([]);
  });

  it('a second resolve of the same target finds nothing open: 404, and no second notification', async () => {
    const res = await call(c.t.app, 'POST', '/api/admin/reports/resolve', { targetType: 'video', targetId: videoId, action: 'dismiss' }, admin.token);
    expect(res.status, res.text).toBe(404);
    const told = await pulledNotifications(c, reporters[0]!);
    expect(told.filter((n) => n.kind === 'report_resolved')).toHaveLength(1);
  });
});
