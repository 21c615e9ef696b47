import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { insertVideo } from '../helpers/videos';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { PASSWORD } from './member-session';

// Shared steps of the notification browser tests (docs/notifications.md, "Tests").

export async function apiLogin(server: ServerProcess, email: string): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  return { token: body.access_token, userId: body.user.id };
}

export async function api(server: ServerProcess, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Another member's changes through the real sync push, as their device would send them. */
export async function pushAs(server: ServerProcess, token: string, mutations: Array<{ name: string; args: unknown }>): Promise<void> {
  const { status, json } = await api(server, token, 'POST', '/api/sync/push', {
    client_id: randomUUID(),
    mutations: mutations.map((m, i) => ({ id: i + 1, ...m })),
  });
  expect(status).toBe(200);
  expect(json.results.map((r: { status: string }) => r.status)).toEqual(mutations.map(() => 'applied'));
}

/** A video of `ownerId` written straight into the server's database (these tests are not about uploading). */
export async function seedVideo(server: ServerProcess, ownerId: string, title: string): Promise<string> {
  const handle = openServerDatabase(server);
  try {
    return await insertVideo({ db: handle.db }, ownerId, { title });
  } finally {
    await handle.close();
  }
}

/** The member's notifications as the server holds them. */
export async function serverNotifications(server: ServerProcess, userId: string): Promise<Array<{ kind: string; read_at: number | null }>> {
  const handle = openServerDatabase(server);
  try {
    return await handle.db.selectFrom('notifications').select(['kind', 'read_at']).where('user_id', '=', userId).execute();
  } finally {
    await handle.close();
  }
}

/** The bell's accessible name ("Notifications, 2 unread"). */
export const bellLabel = (page: Page) =>
  page
    .getByRole('button', { name: /^Notifications/ })
    .first()
    .getAttribute('aria-label');
