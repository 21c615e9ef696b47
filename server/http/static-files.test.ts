import { describe, expect, it } from 'vitest';
import { fileUnder } from './static-files';

describe('fileUnder', () => {
  it('maps a request path to the file under the root', () => {
    expect(fileUnder('/srv/dist', '/sw.js')).toBe('/srv/dist/sw.js');
    expect(fileUnder('/srv/dist', '/assets/index-Ab12.js')).toBe('/srv/dist/assets/index-Ab12.js');
  });

  // @hono/node-server already resolves dot segments of the request line (new URL); this holds even
  // if a path reaches it as sent.
  it.each(['/../x', '/a/../../x', '/./x', '/..', '/%2e%2e/x', '/..%2fx', '/a\\..\\x', '//etc/passwd', '/x\0.js'])('refuses %j', (path) => {
    expect(fileUnder('/srv/dist', path)).toBeNull();
  });
});
