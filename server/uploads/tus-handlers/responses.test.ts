import { ERRORS } from '@tus/server';
import { describe, expect, it } from 'vitest';
import { asJsonError } from './responses';

describe('tus errors as the API answers them', () => {
  it('a lock held past tus’s timeout (another instance writing the upload) is 423 with Retry-After, not 500', async () => {
    const res = await asJsonError(new Response(ERRORS.ERR_LOCK_TIMEOUT.body, { status: ERRORS.ERR_LOCK_TIMEOUT.status_code }), 'PATCH');
    expect(res.status).toBe(423);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(await res.json()).toMatchObject({ error: { code: 'upload_locked' } });
  });

  it('other plain-text errors keep their status in the JSON shape', async () => {
    const res = await asJsonError(new Response('Upload-Offset conflict', { status: 409 }), 'PATCH');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'offset_conflict', message: 'Upload-Offset conflict' } });
  });
});
