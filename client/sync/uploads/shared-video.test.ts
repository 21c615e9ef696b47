import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { MAX_UPLOAD_BYTES } from '#sync/protocol/limits';
import { putSharedVideo, sharedRecord, takeSharedVideo } from './shared-video';

const video = (name: string, type: string) => new File([new Uint8Array([0, 0, 0, 24])], name, { type });

describe('a video shared into Vidi', () => {
  it('is kept when it passes the upload checks, typed from its extension when the share gave no type', () => {
    expect(sharedRecord(video('clip.mp4', 'video/mp4'), 'Sunset', 1)).toMatchObject({ problem: null, title: 'Sunset', at: 1 });
    const typed = sharedRecord(video('clip.MOV', ''), '');
    expect(typed.problem).toBeNull();
    expect(typed.file?.type).toBe('video/quicktime');
    expect(typed.file?.name).toBe('clip.MOV');
  });

  it('is refused (no file kept, the reason is) when it is not a video, too large or missing', () => {
    expect(sharedRecord(video('notes.txt', 'text/plain'), '')).toMatchObject({ file: null, problem: 'invalid_type' });
    expect(sharedRecord(video('notes', ''), '')).toMatchObject({ file: null, problem: 'invalid_type' });
    const huge = { name: 'long.mp4', type: 'video/mp4', size: MAX_UPLOAD_BYTES + 1 } as File;
    expect(sharedRecord(huge, '')).toMatchObject({ file: null, problem: 'too_large' });
    expect(sharedRecord(null, '')).toMatchObject({ file: null, problem: 'invalid_type' });
  });

  it('is handed over once, and a newer share replaces an older one', async () => {
    const idb = new IDBFactory();
    expect(await takeSharedVideo(idb)).toBeNull();
    await putSharedVideo(sharedRecord(video('first.mp4', 'video/mp4'), 'First', 1), idb);
    await putSharedVideo(sharedRecord(video('second.webm', 'video/webm'), 'Second', 2), idb);
    const taken = await takeSharedVideo(idb);
    expect(taken).toMatchObject({ title: 'Second', at: 2, problem: null });
    // Node's structured clone keeps no File contents; the browser's does (tests/e2e/share-target.test.ts).
    expect(taken?.file).toBeTruthy();
    expect(await takeSharedVideo(idb)).toBeNull();
  });
});
