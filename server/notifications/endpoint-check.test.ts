import { describe, expect, it } from 'vitest';
import { endpointProblem, publicOnlyLookup } from './endpoint-check';
import { vapidSubject } from './vapid-keys';

describe('push endpoints', () => {
  it('accepts the push services browsers use', () => {
    for (const e of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://8.8.8.8/x',
    ])
      expect(endpointProblem(e, false), e).toBeNull();
  });

  it('refuses what would make the server call itself or its network (SSRF), and non-https', () => {
    for (const e of [
      'http://fcm.googleapis.com/x',
      'https://localhost/x',
      'https://push.localhost/x',
      'https://127.0.0.2/x',
      'https://0.0.0.0/x',
      'https://10.0.0.1/x',
      'https://172.16.5.4/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/x',
      'https://100.64.0.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fe80::1]/x',
      'https://[fc00::1]/x',
      'https://[64:ff9b::a00:1]/x',
      'https://user:pw@push.example.com/x',
      'https://push.example.com/\u0000x',
      'javascript:alert(1)',
    ])
      expect(endpointProblem(e, false), e).not.toBeNull();
  });

  it('lets tests use a local push service when told to, but still only http(s)', () => {
    expect(endpointProblem('http://localhost:8090/notify/x', true)).toBeNull();
    expect(endpointProblem('https://127.0.0.1:8090/notify/x', true)).toBeNull();
    expect(endpointProblem('file:///etc/passwd', true)).not.toBeNull();
  });
});

describe('the VAPID subject', () => {
  it("is MAIL_FROM's address, else an https PUBLIC_URL", () => {
    expect(vapidSubject('Vidi <no-reply@vidi.example>', 'https://vidi.example')).toBe('mailto:no-reply@vidi.example');
    expect(vapidSubject('ops@vidi.example', 'http://127.0.0.1:8080')).toBe('mailto:ops@vidi.example');
    expect(vapidSubject('Vidi', 'https://vidi.example')).toBe('https://vidi.example');
  });
});

describe('the sender’s lookup', () => {
  it('refuses a name that resolves to a loopback address', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((ok) => publicOnlyLookup('localhost', {}, (e) => ok(e)));
    expect(err?.code).toBe('EPUSHADDRESS');
  });
});
