import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_REASONS } from '#sync/protocol/report-reasons';
import { startConversations, type Conversations } from '../helpers/conversations';
import { call } from '../helpers/test-app';
import { planText, queryPlan } from '../helpers/query-plan';
import { pageQuery } from '#server/safety/queue';
import { createUser, type TestUser } from '../helpers/users';

// Reports and the moderation queue (docs/moderation.md) through the real push and the admin API, on
// SQLite and PostgreSQL: the report rules (the target must be there, one open report per member and
// target, the daily limit), the evidence kept through a deletion, and each resolve action with its
// effect, its audit rows and the reporters' report_resolved notifications.

let c: Conversations;
let admin: TestUser;

beforeAll(async () => {
  c = await startConversations();
  admin = await createUser(c.t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await c?.close();
});

type Target = { targetType: 'video' | 'comment' | 'member'; targetId: string };

const report = (user: TestUser, target: Target, reason = 'spam', note?: string) =>
  c.once(user, 'report', { reportId: randomUUID(), ...target, reason, ...(note ? { note } : {}) });

const admin$ = (method: 'GET' | 'POST', path: string, body?: unknown, as: TestUser = admin) => call(c.t.app, method, path, body, as.token);

async function queueEntry(target: Target, state = 'open') {
  const res = await admin$('GET', `/api/admin/reports?state=${state}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.json.items as any[]).find((i) => i.target_type === target.targetType && i.target_id === target.targetId);
}

const resolve = (target: Target, action: string, note?: string) =>
  admin$('POST', '/api/admin/reports/resolve', { ...target, action, ...(note ? { note } : {}) });

async function toldOf(user: TestUser): Promise<string[]> {
  const { notifications } = await c.pull(user, {});
  return (notifications as { kind: string; detail: string }[]).filter((n) => n.kind === 'report_resolved').map((n) => n.detail);
}

const auditOf = (action: string, target: string) =>
  c.t.deps.db.selectFrom('audit_log').select(['actor_id', 'details']).where('action', '=', action).where('target', '=', target).execute();

describe('GET /api/report-reasons', () => {
  it('answers the codes and labels to a signed-in member, and 401 without a session', async () => {
    const member = await c.member('Reader');
    const res = await call(c.t.app, 'GET', '/api/report-reasons', undefined, member.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(REPORT_REASONS.map(({ code, label }) => ({ code, label })));
    expect((await call(c.t.app, 'GET', '/api/report-reasons')).status).toBe(401);
  });
});

describe('report', () => {
  it('20 members reporting one video make one entry with 20 reports and the reasons counted; one resolve tells all 20', async () => {
    const [owner, reporters] = await Promise.all([c.member('Owner'), c.members(20, 'Many')]);
    const target: Target = { targetType: 'video', targetId: await c.video(owner) };
    const results = await Promise.all(reporters.map((r, i) => report(r, target, i < 12 ? 'hate' : 'spam')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill('applied'));
    const entry = await queueEntry(target);
    expect(entry).toMatchObject({
      reports_count: 20,
      reasons: [
        { code: 'hate', count: 12 },
        { code: 'spam', count: 8 },
      ],
      target_state: 'exists',
    });

    expect((await resolve(target, 'dismiss')).json).toEqual({ state: 'dismissed', reports_resolved: 20 });
    const told = await Promise.all(reporters.map(toldOf));
    expect(told).toEqual(Array(20).fill(['We reviewed your report and took no action']));
    expect(await toldOf(owner)).toEqual([]);
    expect(await queueEntry(target)).toBeUndefined();
    expect(await queueEntry(target, 'dismissed')).toMatchObject({ state: 'dismissed', reports_count: 20 });
  });

  it('a second open report of the same target by the same member is a no-op; another member counts', async () => {
    const [owner, asha, ravi] = await Promise.all([c.member('Owner'), c.member('Asha'), c.member('Ravi')]);
    const target: Target = { targetType: 'video', targetId: await c.video(owner) };
    expect(await report(asha, target, 'spam', 'first')).toMatchObject({ status: 'applied' });
    expect(await report(asha, target, 'hate', 'second')).toMatchObject({ status: 'applied' });
    const rows = await c.t.deps.db.selectFrom('reports').select(['reason', 'note']).where('reporter_id', '=', asha.id).execute();
    expect(rows).toEqual([{ reason: 'spam', note: 'first' }]);
    expect(await queueEntry(target)).toMatchObject({ reports_count: 1, notes: [{ code: 'spam', note: 'first' }] });
    expect(await report(ravi, target, 'hate')).toMatchObject({ status: 'applied' });
    expect(await queueEntry(target)).toMatchObject({ reports_count: 2 });
  });

  it('refuses the 16th report of a member within 24 hours with `limit`, and takes one again a day later', async () => {
    const [owner, eager] = await Promise.all([c.member('Owner'), c.member('Eager')]);
    const videos = await Promise.all(Array.from({ length: 17 }, () => c.video(owner)));
    for (const v of videos.slice(0, 15)) expect(await report(eager, { targetType: 'video', targetId: v })).toMatchObject({ status: 'applied' });
    const refused = await report(eager, { targetType: 'video', targetId: videos[15]! });
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'limit', message: 'You can send up to 15 reports a day.' } });
    expect(await queueEntry({ targetType: 'video', targetId: videos[15]! })).toBeUndefined();
    // A day later (moving the reports back keeps the test's access tokens valid).
    await c.t.deps.db
      .updateTable('reports')
      .set((eb) => ({ created_at: eb('created_at', '-', 24 * 60 * 60 * 1000) }))
      .where('reporter_id', '=', eager.id)
      .execute();
    expect(await report(eager, { targetType: 'video', targetId: videos[16]! })).toMatchObject({ status: 'applied' });
  });

  it('refuses a report of something gone with `not_found`: a deleted video or comment, a suspended member, an unknown id', async () => {
    const [owner, reporter, gone] = await Promise.all([c.member('Owner'), c.member('Reporter'), c.member('Gone')]);
    const videoId = await c.video(owner);
    const commentId = await c.say(owner, videoId, 'soon deleted');
    expect(await c.once(owner, 'deleteComment', { commentId })).toMatchObject({ status: 'applied' });
    await c.t.deps.db.updateTable('profiles').set({ is_active: 0 }).where('id', '=', gone.id).execute();
    const deletedVideo = await c.video(owner);
    expect(await c.once(owner, 'deleteVideo', { videoId: deletedVideo })).toMatchObject({ status: 'applied' });
    for (const target of [
      { targetType: 'comment', targetId: commentId },
      { targetType: 'member', targetId: gone.id },
      { targetType: 'video', targetId: deletedVideo },
      { targetType: 'video', targetId: randomUUID() },
    ] as Target[]) {
      expect(await report(reporter, target)).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
    }
    expect(await c.t.deps.db.selectFrom('reports').select('id').where('reporter_id', '=', reporter.id).execute()).toEqual([]);
  });

  it('keeps the evidence after the target is deleted; the member reported is told nothing', async () => {
    const [owner, reporter] = await Promise.all([c.member('Uploader'), c.member('Witness')]);
    const videoId = await c.video(owner);
    const target: Target = { targetType: 'video', targetId: videoId };
    const video = await c.t.deps.db.selectFrom('videos').select(['title', 'description']).where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(await report(reporter, target, 'violence', 'look at 0:10')).toMatchObject({ status: 'applied' });
    expect(await c.once(owner, 'deleteVideo', { videoId })).toMatchObject({ status: 'applied' });
    const entry = await queueEntry(target);
    expect(entry).toMatchObject({ target_state: 'removed', notes: [{ code: 'violence', note: 'look at 0:10' }] });
    expect(entry.snapshot).toMatchObject({ title: video.title, description: video.description, uploader: { id: owner.id, name: owner.name } });
    const { notifications } = await c.pull(owner, {});
    expect(notifications).toEqual([]);
  });
});

describe('resolving', () => {
  it('remove deletes the video by the admin path, audited, and tells the reporter', async () => {
    const [owner, reporter] = await Promise.all([c.member('Owner'), c.member('Reporter')]);
    const target: Target = { targetType: 'video', targetId: await c.video(owner) };
    expect(await report(reporter, target)).toMatchObject({ status: 'applied' });
    const res = await resolve(target, 'remove', 'clear spam');
    expect(res.json).toEqual({ state: 'actioned', reports_resolved: 1 });
    expect(await c.t.deps.db.selectFrom('videos').select('id').where('id', '=', target.targetId).executeTakeFirst()).toBeUndefined();
    expect(await auditOf('video.delete', target.targetId)).toHaveLength(1);
    const [audit] = await auditOf('report.resolve', target.targetId);
    expect(audit?.actor_id).toBe(admin.id);
    expect(JSON.parse(audit!.details!)).toEqual({ target_type: 'video', action: 'remove', reports: 1, note: 'clear spam' });
    expect(await toldOf(reporter)).toEqual(['We removed the video you reported']);
    expect(await queueEntry(target, 'actioned')).toMatchObject({ target_state: 'removed', resolution_note: 'clear spam' });
  });

  it('remove deletes a comment as deleteComment by an admin does (counts, audit), and tells its reporters', async () => {
    const [owner, author, reporter] = await Promise.all([c.member('Owner'), c.member('Author'), c.member('Reporter')]);
    const videoId = await c.video(owner);
    const commentId = await c.say(author, videoId, 'a rude comment');
    const target: Target = { targetType: 'comment', targetId: commentId };
    expect(await report(reporter, target, 'harassment')).toMatchObject({ status: 'applied' });
    expect((await queueEntry(target)).snapshot).toMatchObject({ text: 'a rude comment', author: { id: author.id }, video_id: videoId });
    expect((await resolve(target, 'remove')).status).toBe(200);
    expect(await c.comment(commentId)).toBeUndefined();
    expect((await c.videoState(videoId)).comments_count).toBe(0);
    expect(await auditOf('comment.delete', commentId)).toHaveLength(1);
    expect(await auditOf('report.resolve', commentId)).toHaveLength(1);
    expect(await toldOf(reporter)).toEqual(['We removed the comment you reported']);
  });

  it('suspend suspends the member behind the target, audited; nothing reaches them', async () => {
    const [troll, reporter] = await Promise.all([c.member('Troll'), c.member('Reporter')]);
    const target: Target = { targetType: 'member', targetId: troll.id };
    expect(await report(reporter, target, 'harassment')).toMatchObject({ status: 'applied' });
    expect((await resolve(target, 'suspend')).json).toEqual({ state: 'actioned', reports_resolved: 1 });
    const profile = await c.t.deps.db.selectFrom('profiles').select('is_active').where('id', '=', troll.id).executeTakeFirstOrThrow();
    expect(profile.is_active).toBe(0);
    expect(await auditOf('user.suspend', troll.id)).toHaveLength(1);
    expect(await toldOf(reporter)).toEqual(['We suspended the account you reported']);
    expect(await queueEntry(target, 'actioned')).toMatchObject({ target_state: 'suspended' });
    const notes = await c.t.deps.db.selectFrom('notifications').select('id').where('user_id', '=', troll.id).execute();
    expect(notes).toEqual([]);
  });

  it('suspending an admin is refused and changes nothing: the reports stay open', async () => {
    const [other, reporter] = await Promise.all([createUser(c.t.deps, { name: 'Other admin', isAdmin: true }), c.member('Reporter')]);
    const target: Target = { targetType: 'member', targetId: other.id };
    expect(await report(reporter, target)).toMatchObject({ status: 'applied' });
    expect((await resolve(target, 'suspend')).status).toBe(403);
    expect(await queueEntry(target)).toMatchObject({ state: 'open', reports_count: 1 });
    expect(await toldOf(reporter)).toEqual([]);
  });

  it('answers 404 when nothing is open on the target, and 400 to bad input, changing nothing', async () => {
    const [owner, reporter] = await Promise.all([c.member('Owner'), c.member('Reporter')]);
    expect((await resolve({ targetType: 'video', targetId: randomUUID() }, 'dismiss')).status).toBe(404);
    const target: Target = { targetType: 'member', targetId: owner.id };
    expect(await report(reporter, target)).toMatchObject({ status: 'applied' });
    for (const body of [
      { ...target, action: 'remove' },
      { ...target, action: 'ban' },
      { targetType: 'post', targetId: owner.id, action: 'dismiss' },
      { ...target, action: 'dismiss', note: 'x'.repeat(501) },
      { ...target, action: 'dismiss', extra: 1 },
    ]) {
      expect((await admin$('POST', '/api/admin/reports/resolve', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin$('GET', '/api/admin/reports?state=closed')).status).toBe(400);
    expect((await admin$('GET', '/api/admin/reports?cursor=nonsense!')).status).toBe(400);
    expect(await queueEntry(target)).toMatchObject({ state: 'open' });
  });

  it('two admins resolving one entry at once: one wins, the other gets 404, each reporter is told once', async () => {
    const [owner, reporters, second] = await Promise.all([c.member('Owner'), c.members(3, 'Twice'), createUser(c.t.deps, { name: 'Admin 2', isAdmin: true })]);
    const target: Target = { targetType: 'video', targetId: await c.video(owner) };
    for (const r of reporters) expect(await report(r, target)).toMatchObject({ status: 'applied' });
    const answers = await Promise.all([resolve(target, 'dismiss'), admin$('POST', '/api/admin/reports/resolve', { ...target, action: 'remove' }, second)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    const told = await Promise.all(reporters.map(toldOf));
    expect(told.map((t) => t.length)).toEqual([1, 1, 1]);
    expect(await auditOf('report.resolve', target.targetId)).toHaveLength(1);
  });

  it('is for admins only: a member gets 403 on the queue and the resolve', async () => {
    const member = await c.member('Curious');
    expect((await admin$('GET', '/api/admin/reports', undefined, member)).status).toBe(403);
    expect((await admin$('POST', '/api/admin/reports/resolve', { targetType: 'member', targetId: member.id, action: 'dismiss' }, member)).status).toBe(403);
  });

  it('pages the open queue oldest first with a cursor, and the stats count the open entries', async () => {
    const owner = await c.member('Owner');
    const reporter = await c.member('Pager');
    const open = async () => {
      const all: any[] = [];
      let cursor: string | null = null;
      do {
        const res = await admin$('GET', `/api/admin/reports?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status, res.text).toBe(200);
        expect(res.json.items.length).toBeLessThanOrEqual(2);
        all.push(...res.json.items);
        cursor = res.json.next_cursor;
      } while (cursor);
      return all;
    };
    const before = await open();
    for (let i = 0; i < 3; i++) {
      c.t.advance(1);
      expect(await report(reporter, { targetType: 'video', targetId: await c.video(owner) })).toMatchObject({ status: 'applied' });
    }
    const after = await open();
    expect(after).toHaveLength(before.length + 3);
    const times = after.map((i) => i.first_reported_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const stats = await admin$('GET', '/api/admin/stats');
    expect(stats.json.open_reports).toBe(after.length);
  });
});

describe('the queue pages on report_targets_queue', () => {
  it('walks the index in both directions, from a cursor, without a sort or a whole-table scan', async () => {
    for (const state of ['open', 'actioned'] as const) {
      const q = pageQuery(c.t.deps.db, { state, limit: 20, cursor: { createdAt: Date.now(), id: 'ffffffff' } }).compile();
      const p = await queryPlan(c.t.deps.db, q);
      expect(
        p.some((step) => step.index === 'report_targets_queue'),
        planText(p),
      ).toBe(true);
      expect(
        p.filter((step) => step.kind === 'sort' || step.kind === 'scan'),
        planText(p),
      ).toEqual([]);
    }
  });
});
