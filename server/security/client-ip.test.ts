import { describe, expect, it } from 'vitest';
import { forwardedClient, ipLimitKey } from './client-ip';

describe('forwardedClient', () => {
  it('takes the entry the trusted proxies appended, never one a client wrote in front', () => {
    expect(forwardedClient('203.0.113.7', '10.0.0.1', 1)).toBe('203.0.113.7');
    expect(forwardedClient('1.2.3.4, 203.0.113.7', '10.0.0.1', 1)).toBe('203.0.113.7');
    expect(forwardedClient('1.2.3.4, 203.0.113.7, 10.0.0.2', '10.0.0.1', 2)).toBe('203.0.113.7');
  });

  it('falls back to the peer when the chain is short or the entry is not an address', () => {
    expect(forwardedClient(undefined, '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(forwardedClient('not-an-ip', '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(forwardedClient('2001:db8::1', '10.0.0.1', 1)).toBe('2001:db8::1');
  });
});

describe('ipLimitKey', () => {
  it('keys IPv6 by its /64, however the address is written', () => {
    const keys: Array<[string, string]> = [
      ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
      ['2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:db8:1:2::/64'],
      ['2001:0DB8:0001:0002:0000:0000:0000:0009', '2001:db8:1:2::/64'],
      ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
      ['::1', '0:0:0:0::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['2001:db8::192.0.2.1', '2001:db8:0:0::/64'],
    ];
    for (const [address, key] of keys) expect(ipLimitKey(address), address).toBe(key);
  });

  it('keeps IPv4 per address, and reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    for (const address of ['203.0.113.7', '::ffff:203.0.113.7', '::FFFF:cb00:7107', '0:0:0:0:0:ffff:203.0.113.7']) {
      expect(ipLimitKey(address), address).toBe('203.0.113.7');
    }
    expect(ipLimitKey('unknown')).toBe('unknown');
  });
});
