import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('defaults to 127.0.0.1:8080 with data under ./data', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.databaseUrl.endsWith('/data/vidi.sqlite')).toBe(true);
    expect(c.smtpUrl).toBeUndefined();
  });

  it('names each bad variable with its value', () => {
    expect(() => loadConfig({ PORT: 'eighty', PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '70000', SMTP_URL: 'http://mail' });
    } catch (e) {
      expect((e as Error).message).toMatch(/PORT: .*"70000"/);
      expect((e as Error).message).toMatch(/SMTP_URL/);
    }
  });

  it('reads the upload free-space floor in MiB (default 2 GiB) and refuses a bad one', () => {
    expect(loadConfig({}).uploadMinFreeBytes).toBe(2048 * 1024 * 1024);
    expect(loadConfig({ UPLOAD_MIN_FREE_MIB: '0' }).uploadMinFreeBytes).toBe(0);
    for (const bad of ['-1', '1.5', 'lots']) expect(() => loadConfig({ UPLOAD_MIN_FREE_MIB: bad })).toThrow(/UPLOAD_MIN_FREE_MIB/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '' }).port).toBe(8080);
  });
});
