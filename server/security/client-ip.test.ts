import { describe, expect, it } from 'vitest';
import { forwardedClient } from './client-ip';

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
