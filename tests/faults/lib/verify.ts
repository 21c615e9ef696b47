import type Database from 'better-sqlite3';
import type { MutationModel, ReplayingPushClient } from './push-client';

export interface ExactlyOnceReport {
  mutations: number;
  lost: number;
  doubled: number;
  problems: string[];
}

/**
 * Every acknowledged mutation is in the database exactly once: each client's last_mutation_id is
 * what it sent, each modelled comment exists once, each member's likes are the modelled set, and
 * the videos' counters equal their rows.
 */
export function checkExactlyOnce(
  db: Database.Database,
  model: MutationModel,
  clients: Array<{ client: ReplayingPushClient; userId: string }>,
): ExactlyOnceReport {
  const problems = clients.flatMap(({ client }) => clientProblems(db, client));
  const mutations = clients.reduce((n, { client }) => n + client.lastId, 0);
  const comments = commentsOnce(db, model);
  const likes = likesAsModelled(
    db,
    model,
    clients.map((c) => c.userId),
  );
  const lost = comments.lost + likes.lost;
  const doubled = comments.doubled + likes.doubled;
  const mismatch = db
    .prepare<[], { id: string }>(
      `SELECT v.id FROM videos v WHERE v.likes_count != (SELECT count(*) FROM likes l WHERE l.video_id = v.id)
         OR v.comments_count != (SELECT count(*) FROM comments c WHERE c.video_id = v.id) LIMIT 5`,
    )
    .all();
  if (mismatch.length) problems.push(`counters differ from rows on videos ${mismatch.map((m) => m.id).join(', ')}`);
  if (lost) problems.push(`${lost} acknowledged effects missing`);
  if (doubled) problems.push(`${doubled} effects applied twice or unexpected`);
  return { mutations, lost, doubled, problems };
}

/** A client's every mutation acknowledged, and the server's last_mutation_id for it the last one sent. */
function clientProblems(db: Database.Database, client: ReplayingPushClient): string[] {
  const problems: string[] = [];
  if (client.acknowledged.size !== client.lastId) problems.push(`client ${client.clientId}: ${client.acknowledged.size} of ${client.lastId} acknowledged`);
  const row = db.prepare<[string], { last_mutation_id: number }>('SELECT last_mutation_id FROM sync_clients WHERE client_id = ?').get(client.clientId);
  if ((row?.last_mutation_id ?? 0) !== client.lastId)
    problems.push(`client ${client.clientId}: server last_mutation_id ${row?.last_mutation_id} != ${client.lastId}`);
  return problems;
}

function commentsOnce(db: Database.Database, model: MutationModel): { lost: number; doubled: number } {
  const countComment = db.prepare<[string], number>('SELECT count(*) FROM comments WHERE id = ?').pluck();
  const counts = [...model.comments.keys()].map((id) => countComment.get(id) ?? 0);
  return { lost: counts.filter((n) => n === 0).length, doubled: counts.filter((n) => n > 1).length };
}

function likesAsModelled(db: Database.Database, model: MutationModel, users: string[]): { lost: number; doubled: number } {
  const have = likesOf(db, users);
  let lost = 0;
  let doubled = 0;
  for (const userId of users) {
    const want = model.liked.get(userId) ?? new Set<string>();
    const now = have.get(userId)!;
    lost += [...want].filter((v) => !now.has(v)).length;
    doubled += [...now].filter((v) => !want.has(v)).length;
  }
  return { lost, doubled };
}

export function integrityCheck(db: Database.Database): string {
  return String(db.pragma('integrity_check', { simple: true }));
}

/** Likes each member has now: the starting state of a MutationModel. */
export function likesOf(db: Database.Database, users: string[]): Map<string, Set<string>> {
  const q = db.prepare<[string], string>('SELECT video_id FROM likes WHERE user_id = ?').pluck();
  return new Map(users.map((u) => [u, new Set(q.all(u))]));
}
