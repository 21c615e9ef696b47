import { describe, expect, it } from 'vitest';
import { shareTargetRouter } from './share-target-route';

describe('POST /share-target without a service worker', () => {
  it('sends the member to the app with a 303, whatever was shared', async () => {
    const form = new FormData();
    form.append('title', 'Sunset');
    form.append('video', new Blob([new Uint8Array(3 * 1024 * 1024)], { type: 'video/mp4' }), 'sunset.mp4');
    for (const body of [form, undefined, 'not a form']) {
      const res = await shareTargetRouter().request('/share-target', { method: 'POST', ...(body ? { body } : {}) });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/home');
      expect(res.headers.get('connection')).toBeNull();
      expect(await res.text()).toBe('');
    }
  });
});
