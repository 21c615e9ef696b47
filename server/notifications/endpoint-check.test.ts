import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { checkEndpoint, endpointProblem, type EndpointPolicy } from './endpoint-check';
import { isPublicAddress, publicOnlyLookup, type LookupFunction } from './special-addresses';
import { vapidSubject } from './vapid-keys';

// Names here are never resolved: the check is about the URL alone, and the lookup test gives its own resolver.

const BROWSERS: EndpointPolicy = { allowInsecure: false, extraHosts: [] };
const ANY_PUBLIC: EndpointPolicy = { allowInsecure: false, extraHosts: ['*'] };
const TESTS: EndpointPolicy = { allowInsecure: true, extraHosts: [] };

describe('push endpoints: the browsers’ push services only', () => {
  it('accepts the endpoints Chrome, Firefox, Safari and Edge give, and sends to exactly their host on 443', () => {
    for (const e of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2b',
    ])
      expect(endpointProblem(e, BROWSERS), e).toBeNull();
    expect(checkEndpoint('https://fcm.googleapis.com/fcm/send/a?b=1#c', BROWSERS)).toEqual({
      ok: true,
      target: { protocol: 'https:', host: 'fcm.googleapis.com', port: 443, path: '/fcm/send/a?b=1', origin: 'https://fcm.googleapis.com', isName: true },
    });
  });

  it('refuses any other host unless PUSH_ENDPOINT_HOSTS names it', () => {
    for (const e of [
      'https://push.example.com/x',
      'https://fcm.googleapis.com.evil.com/x',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com/x',
      'https://xnotify.windows.com/x',
      'https://8.8.8.8/x',
    ])
      expect(endpointProblem(e, BROWSERS), e).toBe('The push endpoint must be a public push service.');
    const widened: EndpointPolicy = { allowInsecure: false, extraHosts: ['push.example.com', '*.push.example.org'] };
    expect(endpointProblem('https://push.example.com/x', widened)).toBeNull();
    expect(endpointProblem('https://eu.push.example.org/x', widened)).toBeNull();
    expect(endpointProblem('https://push.example.org/x', widened)).not.toBeNull();
    expect(endpointProblem('https://8.8.8.8/x', ANY_PUBLIC)).toBeNull();
  });

  it('refuses what the WHATWG and the legacy URL parsers read differently, and anything not written as a browser writes it', () => {
    for (const e of [
      'https://127.0.0.77;.evil.com/x',
      'https://127.0.0.77%3B.evil.com/x',
      'https://127.0.0.77%2e.evil.com/x',
      'https://127.0.0.77${}.evil.com/x',
      'https://127.0.0.77*.evil.com/x',
      'https://127.0.0.77,.evil.com/x',
      'https://fcm.googleapis.com;.evil.com/x',
      'https://127.0.0.77\\.fcm.googleapis.com/x',
      'https://fcm.googleapis.com\\@127.0.0.77/x',
      'https://FCM.googleapis.com/x',
      'https://fcm.googleapis.com:443/x',
      'https://0x7f.0.0.1/x',
      'https://2130706433/x',
      'https://user:pw@fcm.googleapis.com/x',
      'https://fcm.googleapis.com/\u0000x',
      'javascript:alert(1)',
    ]) {
      expect(endpointProblem(e, ANY_PUBLIC), e).not.toBeNull();
      expect(endpointProblem(e, TESTS), e).not.toBeNull();
    }
  });

  it('refuses every special-purpose address, localhost and any port but 443, whatever the allowed hosts', () => {
    for (const e of [
      'http://fcm.googleapis.com/x',
      'https://fcm.googleapis.com:8443/x',
      'https://8.8.8.8:444/x',
      'https://localhost/x',
      'https://localhost./x',
      'https://push.localhost/x',
      'https://fcm.googleapis.com./x',
      'https://127.0.0.2/x',
      'https://0.0.0.0/x',
      'https://10.0.0.1/x',
      'https://172.16.5.4/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/x',
      'https://100.64.0.1/x',
      'https://192.0.0.8/x',
      'https://192.0.2.1/x',
      'https://192.88.99.1/x',
      'https://198.18.0.1/x',
      'https://198.19.255.1/x',
      'https://198.51.100.7/x',
      'https://203.0.113.9/x',
      'https://224.0.0.1/x',
      'https://239.255.255.250/x',
      'https://240.0.0.1/x',
      'https://255.255.255.255/x',
      'https://[::]/x',
      'https://[::1]/x',
      'https://[::127.0.0.1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[64:ff9b::a00:1]/x',
      'https://[64:ff9b:1::7f00:1]/x',
      'https://[100::1]/x',
      'https://[2001::1]/x',
      'https://[2001:db8::1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[3fff::1]/x',
      'https://[fc00::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[fec0::1]/x',
      'https://[ff02::1]/x',
    ])
      expect(endpointProblem(e, ANY_PUBLIC), e).not.toBeNull();
  });

  it('lets tests use a local push service when told to (any address and port), still only http(s) the parsers agree on', () => {
    expect(endpointProblem('http://localhost:8090/notify/x', TESTS)).toBeNull();
    expect(checkEndpoint('https://127.0.0.1:8090/notify/x', TESTS)).toMatchObject({ ok: true, target: { host: '127.0.0.1', port: 8090, isName: false } });
    expect(checkEndpoint('https://[::1]:8090/n', TESTS)).toMatchObject({ ok: true, target: { host: '::1', port: 8090 } });
    expect(endpointProblem('file:///etc/passwd', TESTS)).not.toBeNull();
  });
});

describe('public addresses', () => {
  it('are global unicast outside the special-purpose blocks', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '142.250.1.1', '2607:f8b0:4004:c1b::5f', '2a00:1450:4001::1']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '::ffff:8.8.8.8', '::8.8.8.8', '2002:808:808::1', '64:ff9b::808:808', 'fec0::1', '198.18.0.1', 'localhost', '']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});

describe('PUSH_ENDPOINT_HOSTS', () => {
  it('is checked at start-up: names, *.suffix or *, never an address or localhost', () => {
    expect(loadConfig({ PUSH_ENDPOINT_HOSTS: 'Push.Example.com, *.push.example.org' }).push.endpointHosts).toEqual(['push.example.com', '*.push.example.org']);
    expect(loadConfig({}).push.endpointHosts).toEqual([]);
    for (const bad of ['127.0.0.1', 'localhost', 'a.localhost', 'push.example.com;x', '*.com', 'http://push.example.com', '[::1]', '*.*.example.com'])
      expect(() => loadConfig({ PUSH_ENDPOINT_HOSTS: bad }), bad).toThrow(/PUSH_ENDPOINT_HOSTS/);
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
  // A resolver standing in for DNS: answers from a table, never asks the network.
  const table: Record<string, string[]> = { 'public.test': ['8.8.8.8'], 'rebound.test': ['8.8.8.8', '127.0.0.1'], 'mapped.test': ['::ffff:7f00:1'] };
  const resolve: LookupFunction = (hostname, _options, callback) => {
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  const lookup = (name: string, all: boolean) =>
    new Promise<{ code: string | undefined; answer: unknown }>((ok) =>
      publicOnlyLookup(resolve)(name, { all }, (e, answer) => ok({ code: e?.code, answer: e ? undefined : answer })),
    );

  it('answers a public address, and refuses a name with any special-purpose address among its answers', async () => {
    expect(await lookup('public.test', false)).toEqual({ code: undefined, answer: '8.8.8.8' });
    expect(await lookup('public.test', true)).toEqual({ code: undefined, answer: [{ address: '8.8.8.8', family: 4 }] });
    expect((await lookup('rebound.test', true)).code).toBe('EPUSHADDRESS');
    expect((await lookup('mapped.test', false)).code).toBe('EPUSHADDRESS');
    expect((await lookup('unknown.test', false)).code).toBe('ENOTFOUND');
  });
});
