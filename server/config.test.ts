import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, sharedDeploymentProblems } from './config';

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

  it('reads the push settings: a 60 s like batch and https push services only, unless told', () => {
    expect(loadConfig({}).push).toEqual({ likeBatchMs: 60_000, allowInsecureEndpoints: false, endpointHosts: [] });
    expect(loadConfig({ PUSH_LIKE_BATCH_SECONDS: '0', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' }).push).toEqual({
      likeBatchMs: 0,
      allowInsecureEndpoints: true,
      endpointHosts: [],
    });
    expect(() => loadConfig({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'yes' })).toThrow(/PUSH_ALLOW_INSECURE_ENDPOINTS/);
    expect(() => loadConfig({ PUSH_LIKE_BATCH_SECONDS: '-5' })).toThrow(/PUSH_LIKE_BATCH_SECONDS/);
  });

  it('hashes passwords at the production scrypt cost; a cheaper one only under NODE_ENV=test', () => {
    expect(loadConfig({}).passwordLog2N).toBe(17);
    expect(loadConfig({ PASSWORD_HASH_LOG2N: '18' }).passwordLog2N).toBe(18);
    expect(loadConfig({ PASSWORD_HASH_LOG2N: '12', NODE_ENV: 'test' }).passwordLog2N).toBe(12);
    for (const env of [{}, { NODE_ENV: 'production' }])
      expect(() => loadConfig({ ...env, PASSWORD_HASH_LOG2N: '12' })).toThrow(/PASSWORD_HASH_LOG2N: under 17/);
    for (const bad of ['9', '21', 'fast']) expect(() => loadConfig({ PASSWORD_HASH_LOG2N: bad, NODE_ENV: 'test' })).toThrow(/PASSWORD_HASH_LOG2N/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '' }).port).toBe(8080);
  });
});

const PG_URL = 'postgres://vidi:secret@127.0.0.1:5432/vidi';
const SHARED = { JWT_PRIVATE_KEY: 'pem', PUBLIC_URL: 'https://vidi.example', SECRETS_KEY: 'a2V5' };

describe('what instances sharing a PostgreSQL database must be given', () => {
  it('asks nothing of SQLite', () => {
    expect(sharedDeploymentProblems(loadConfig({}), {})).toEqual([]);
    expect(sharedDeploymentProblems(loadConfig({ DATABASE_URL: 'sqlite:///tmp/x.sqlite' }), {})).toEqual([]);
  });

  it('names each of JWT_PRIVATE_KEY, PUBLIC_URL and SECRETS_KEY that is missing with PostgreSQL, and only those', () => {
    const config = loadConfig({ DATABASE_URL: PG_URL });
    const all = sharedDeploymentProblems(config, {});
    expect(all).toHaveLength(3);
    expect(all.join('\n')).toMatch(/JWT_PRIVATE_KEY: required with a PostgreSQL DATABASE_URL/);
    expect(all.join('\n')).toMatch(/PUBLIC_URL: required/);
    expect(all.join('\n')).toMatch(/SECRETS_KEY: required/);
    const oneMissing = sharedDeploymentProblems(config, { ...SHARED, PUBLIC_URL: undefined });
    expect(oneMissing).toHaveLength(1);
    expect(oneMissing[0]).toMatch(/^\s*PUBLIC_URL:/);
    expect(sharedDeploymentProblems(config, SHARED)).toEqual([]);
    // An empty value is as good as none.
    expect(sharedDeploymentProblems(config, { ...SHARED, SECRETS_KEY: '' })).toHaveLength(1);
  });

  it('recognises postgresql:// in any case as PostgreSQL', () => {
    expect(sharedDeploymentProblems(loadConfig({ DATABASE_URL: 'POSTGRESQL://h/db' }), {})).toHaveLength(3);
  });
});

describe('object storage (S3_*)', () => {
  const S3 = { S3_BUCKET: 'vidi-media', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'secret' };

  it('keeps media on disk without S3_BUCKET', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'disk' });
  });

  it('reads a bucket with its endpoint (trailing slash dropped), region, credentials and path style', () => {
    expect(loadConfig({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:7480/', S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'true' }).storage).toEqual({
      kind: 's3',
      bucket: 'vidi-media',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    const defaults = loadConfig({ S3_BUCKET: 'vidi-media' }).storage;
    expect(defaults).toEqual({ kind: 's3', bucket: 'vidi-media', endpoint: undefined, region: 'us-east-1', credentials: undefined, forcePathStyle: false });
  });

  it('refuses an invalid bucket name, naming S3_BUCKET', () => {
    for (const bad of ['ab', 'Vidi-Media', 'vidi_media', '-vidi', 'vidi-', 'x'.repeat(64), 'has space']) {
      expect(() => loadConfig({ ...S3, S3_BUCKET: bad }), bad).toThrow(/S3_BUCKET: must be a valid S3 bucket name/);
    }
    expect(loadConfig({ ...S3, S3_BUCKET: 'abc' }).storage.kind).toBe('s3');
    expect(loadConfig({ ...S3, S3_BUCKET: 'x'.repeat(63) }).storage.kind).toBe('s3');
  });

  it('refuses one credential without the other', () => {
    expect(() => loadConfig({ ...S3, S3_SECRET_ACCESS_KEY: undefined })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither/);
    expect(() => loadConfig({ S3_BUCKET: 'vidi-media', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(ConfigError);
  });

  it('refuses a bad endpoint or path-style flag', () => {
    expect(() => loadConfig({ ...S3, S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...S3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});

describe('media from a public base (MEDIA_PUBLIC_BASE_URL)', () => {
  it('is unset by default: every media URL stays the app’s /media', () => {
    expect(loadConfig({}).media.publicBaseUrl).toBeUndefined();
  });

  it('reads an http(s) base, dropping trailing slashes', () => {
    expect(loadConfig({ MEDIA_PUBLIC_BASE_URL: 'https://cdn.example.com/vidi/media/' }).media.publicBaseUrl).toBe('https://cdn.example.com/vidi/media');
    expect(loadConfig({ MEDIA_PUBLIC_BASE_URL: 'http://127.0.0.1:7480/t-abc/media' }).media.publicBaseUrl).toBe('http://127.0.0.1:7480/t-abc/media');
  });

  it('refuses anything but a plain http(s) base, naming the variable', () => {
    for (const bad of [
      'cdn.example.com/media',
      'ftp://cdn.example.com/media',
      'javascript:alert(1)',
      'https://cdn.example.com/media?sig=1',
      'https://cdn.example.com/media#x',
      'https://cdn.example.com/?',
    ]) {
      expect(() => loadConfig({ MEDIA_PUBLIC_BASE_URL: bad }), bad).toThrow(/MEDIA_PUBLIC_BASE_URL/);
    }
  });
});
