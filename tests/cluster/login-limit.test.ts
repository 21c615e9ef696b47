import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../scripts/lib/cluster/start-cluster';
import { PASSWORD, signUpVerified, startTestCluster, uniqueEmail } from './cluster-session';

/** A login attempt straight at one instance, from the address the balancer would have forwarded. */
async function attempt(origin: string, email: string, password: string, clientIp: string) {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientIp },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after')), body: (await res.json()) as { error?: { code: string } } };
}

/**
 * The per-account limit of tests/api/auth-rate-limits.test.ts (5 failures, then 15 minutes locked)
 * on two instances of one database: an attacker spreading guesses over the instances gets no more.
 */
describe('failed logins across instances', () => {
  let cluster: Cluster;
  const email = uniqueEmail('locked');

  beforeAll(async () => {
    cluster = await startTestCluster({ workers: 0 });
    await signUpVerified(cluster, 'Lara Locked', email);
  });
  afterAll(() => cluster?.stop());

  it('locks the account after 5 failures sent to A and B in turn, on both instances and through the balancer', async () => {
    const [a, b] = cluster.instances;
    for (let i = 0; i < 5; i++) {
      const res = await attempt((i % 2 ? b : a)!.url, email, `wrong-${i}`, `10.9.0.${i}`);
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    for (const origin of [a!.url, b!.url, cluster.url]) {
      // The right password, from yet another address: still refused, as on one instance.
      const res = await attempt(origin, email, PASSWORD, '10.9.1.1');
      expect(res.status, origin).toBe(429);
      expect(res.body.error?.code).toBe('rate_limited');
      expect(res.retryAfter).toBeGreaterThan(14 * 60);
      expect(res.retryAfter).toBeLessThanOrEqual(15 * 60);
    }
  });
});
