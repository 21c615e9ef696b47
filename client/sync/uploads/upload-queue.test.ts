import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, FAST_LINK_CHUNK_SIZE, chunkSizeForLink } from './upload-queue';

describe('the upload chunk chosen by the link', () => {
  const fast = { effectiveType: '4g', downlink: 10, saveData: false };

  it('sends 50 MiB PATCHes on a link the browser calls 4G-class at its top estimate, unmetered', () => {
    expect(chunkSizeForLink(fast)).toBe(FAST_LINK_CHUNK_SIZE);
    expect(chunkSizeForLink({ ...fast, type: 'wifi' })).toBe(FAST_LINK_CHUNK_SIZE);
    expect(FAST_LINK_CHUNK_SIZE).toBe(50 * 1024 * 1024);
  });

  it('keeps 5 MiB on a metered, slow or merely good link', () => {
    expect(chunkSizeForLink({ ...fast, saveData: true })).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink({ ...fast, type: 'cellular' })).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink({ ...fast, effectiveType: '3g' })).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink({ ...fast, downlink: 1.6 })).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink({ ...fast, downlink: 9.5 })).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink({ effectiveType: '4g' })).toBe(CHUNK_SIZE);
    expect(CHUNK_SIZE).toBe(5 * 1024 * 1024);
  });

  it('keeps 5 MiB where the browser says nothing of its link (Safari, Firefox, Node)', () => {
    expect(chunkSizeForLink(undefined)).toBe(CHUNK_SIZE);
    expect(chunkSizeForLink()).toBe(CHUNK_SIZE);
  });
});
