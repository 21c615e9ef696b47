import { defaultOptions, Upload, type DetailedError } from 'tus-js-client';
import type { UploadRecord, UploadsDb } from './upload-db';
import { CompanionFiles } from './companion-files';
import type { UploadEvents } from './upload-events';
import { requestPersistentStorage } from '../../lib/session/persist-storage';
import { costlyConnection, networkInformation } from '../../lib/connection';

/**
 * 5 MiB: measured over loopback (docs/uploads.md), 256 KiB chunks ran at about half the speed and
 * 1-2 MiB were noisy, while 5, 8, 16 MiB and whole-file PATCHes were within noise of each other on
 * disk. The chunk of a slow, metered or unknown link: each PATCH stays short there.
 */
export const CHUNK_SIZE = 5 * 1024 * 1024;
/**
 * The chunk of a fast, unmetered link (docs/decisions/0029-upload-chunks-by-link.md): into S3 each
 * PATCH's parts go up while the rest of its body arrives, where 5 MiB PATCHes send one part at a
 * time. 50 MiB is one request of at most 42 s at 10 Mbit/s, far inside the server's 300 s.
 */
export const FAST_LINK_CHUNK_SIZE = 50 * 1024 * 1024;
/** Chromium's downlink estimate stops at 10 Mbit/s: a link it puts there is at least that fast. */
const FAST_LINK_MBPS = 10;
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];
const PROGRESS_WRITE_MS = 250;

/** What the dialog hands over; the queue fills in the rest of the record. */
export type NewUpload = Pick<UploadRecord, 'videoId' | 'userId' | 'userName' | 'title' | 'description' | 'file' | 'fileName' | 'durationMs' | 'posterBlob'> & {
  captionsBlob?: Blob | null;
};

export interface UploadQueueOptions {
  db: UploadsDb;
  /** Absolute tus endpoint, e.g. https://host/files/. */
  endpoint: string;
  /** A fresh access token for each request (null when signed out). */
  getAccessToken(): Promise<string | null>;
  /** Sends the poster (PUT /api/videos/:id/poster); resolves true when stored. */
  sendPoster?(videoId: string, poster: Blob, token: string): Promise<boolean>;
  /** Sends the captions (PUT /api/videos/:id/captions) once the video exists; resolves true when stored or refused for good. */
  sendCaptions?(videoId: string, captions: Blob, token: string): Promise<boolean>;
  chunkSize?: number;
  events?: Pick<UploadEvents, 'onSuccess' | 'onFailure'>;
  isOnline?(): boolean;
  /** Extra tus-js-client options (Node tests pass a fileReader for Blobs). */
  tus?: Partial<ConstructorParameters<typeof Upload>[1]>;
}

/**
 * The chunk for the link an upload starts on: FAST_LINK_CHUNK_SIZE where the browser says the link
 * is 4G-class at Chromium's top downlink estimate, not cellular and without Save-Data; CHUNK_SIZE
 * otherwise, also where it says nothing (Safari, Firefox). A PATCH cut short keeps what arrived on
 * both stores (docs/uploads.md), so a bigger chunk re-sends no more after a cut.
 */
export function chunkSizeForLink(link = networkInformation()): number {
  if (!link || costlyConnection(link) !== null) return CHUNK_SIZE;
  return link.effectiveType === '4g' && (link.downlink ?? 0) >= FAST_LINK_MBPS ? FAST_LINK_CHUNK_SIZE : CHUNK_SIZE;
}

/** Why the server refused for good, from its JSON error (or null for a network failure). */
function serverRefusal(err: unknown): { status: number; code: string; message: string } | null {
  const res = (err as DetailedError | undefined)?.originalResponse;
  if (!res) return null;
  const status = res.getStatus();
  let code = '';
  let message = '';
  try {
    const body = JSON.parse(res.getBody()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? '';
    message = body.error?.message ?? '';
  } catch {
    message = '';
  }
  return { status, code, message };
}

/**
 * 507 (the server is short of disk space) is a server-side status but no passing fault: it is
 * reported like a refusal (the record stays, marked failed with the reason, for the user to retry)
 * instead of being retried in the background without the user knowing. 429 (too many uploads in
 * progress, the daily volume) is a refusal already.
 */
const INSUFFICIENT_STORAGE = 507;

/** Worth retrying without the user: server faults, a token refresh race, a locked or conflicting upload. */
function isTransient(status: number): boolean {
  return (status >= 500 && status !== INSUFFICIENT_STORAGE) || status === 401 || status === 423 || status === 409;
}

/**
 * Runs queued uploads one at a time with tus-js-client. The upload URL and acknowledged offset
 * live in IndexedDB (not tus-js-client's localStorage fingerprints), so any later run (after a
 * reload, a lost connection or an app restart) resumes from where the server is.
 */
export class UploadQueue {
  private readonly active = new Map<string, { upload: Upload; finish(v: 'next' | 'stopped'): void }>();
  private running: Promise<void> | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly online = () => this.resumeAll();

  private readonly companions: CompanionFiles;

  constructor(private readonly o: UploadQueueOptions) {
    this.companions = new CompanionFiles(o);
  }

  /** Listens for `online` and starts whatever is unfinished. */
  start(): void {
    if (typeof window !== 'undefined') window.addEventListener('online', this.online);
    this.resumeAll();
  }

  stop(): void {
    if (typeof window !== 'undefined') window.removeEventListener('online', this.online);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const a of this.active.values()) {
      void a.upload.abort(false);
      a.finish('stopped');
    }
    this.active.clear();
  }

  async enqueue(input: NewUpload): Promise<void> {
    const record: UploadRecord = {
      videoId: input.videoId,
      userId: input.userId,
      userName: input.userName,
      title: input.title.trim(),
      description: input.description.trim(),
      file: input.file,
      fileName: input.fileName,
      fileType: input.file.type,
      size: input.file.size,
      durationMs: input.durationMs,
      posterBlob: input.posterBlob,
      posterSent: false,
      captionsBlob: input.captionsBlob ?? null,
      captionsSent: false,
      tusUrl: null,
      bytesSent: 0,
      status: 'queued',
      error: null,
      createdAt: Date.now(),
    };
    await this.o.db.uploads.add(record);
    // The file now lives on this device until it is sent: ask that the browser not evict it.
    requestPersistentStorage();
    this.resumeAll();
  }

  /** Stops the upload, terminates it on the server when possible, and forgets it locally. */
  async cancel(videoId: string): Promise<void> {
    const rec = await this.o.db.uploads.get(videoId);
    const live = this.active.get(videoId);
    this.active.delete(videoId);
    await this.o.db.uploads.delete(videoId);
    if (live) {
      live.finish('next');
      await live.upload.abort(true).catch(() => undefined);
    } else if (rec?.tusUrl) {
      // Offline: the server expires the partial upload after 24 hours anyway.
      await Upload.terminate(rec.tusUrl, { onBeforeRequest: (req) => this.authorize(req) }).catch(() => undefined);
    }
  }

  /** Retries a failed upload from where the server is. */
  async retry(videoId: string): Promise<void> {
    await this.o.db.uploads.update(videoId, { status: 'queued', error: null });
    this.resumeAll();
  }

  resumeAll(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  /**
   * A server error or a refused token (e.g. a refresh racing another tab) while the browser says it
   * is online: try again later with a growing delay, not only at the next `online` event.
   */
  private scheduleRetry(): void {
    if (this.retryTimer || !this.isOnline()) return;
    const delay = Math.min(60_000, 2000 * 2 ** this.failures);
    this.failures++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.resumeAll();
    }, delay);
  }

  private isOnline(): boolean {
    return this.o.isOnline ? this.o.isOnline() : typeof navigator === 'undefined' || navigator.onLine !== false;
  }

  private async drain(): Promise<void> {
    await this.companions.sendUnsentCaptions();
    for (;;) {
      if (!this.isOnline()) return;
      const next = await this.o.db.uploads
        .where('status')
        .anyOf('queued', 'uploading', 'paused')
        .sortBy('createdAt')
        .then((rows) => rows[0]);
      if (!next) return;
      const outcome = await this.runOne(next);
      if (outcome === 'stopped') return;
    }
  }

  private async authorize(req: { setHeader(name: string, value: string): void }): Promise<void> {
    const token = await this.o.getAccessToken();
    if (token) req.setHeader('Authorization', `Bearer ${token}`);
  }

  /** 'next' to go on with the queue, 'stopped' when the network is gone (wait for `online`). */
  private runOne(rec: UploadRecord): Promise<'next' | 'stopped'> {
    const { db } = this.o;
    return new Promise((resolve) => {
      let lastWrite = 0;
      let settled = false;
      const finish = (v: 'next' | 'stopped') => {
        if (settled) return;
        settled = true;
        this.active.delete(rec.videoId);
        resolve(v);
      };
      const upload = new Upload(rec.file, {
        ...this.o.tus,
        endpoint: this.o.endpoint,
        uploadUrl: rec.tusUrl,
        chunkSize: this.o.chunkSize ?? chunkSizeForLink(),
        retryDelays: RETRY_DELAYS,
        storeFingerprintForResuming: false,
        removeFingerprintOnSuccess: false,
        // tus-js-client retries 5xx itself; a 507 goes straight to onError (reported, see above).
        onShouldRetry: (err, attempt, options) =>
          serverRefusal(err)?.status !== INSUFFICIENT_STORAGE && !!defaultOptions.onShouldRetry?.(err, attempt, options),
        metadata: { videoId: rec.videoId, title: rec.title, description: rec.description, filename: rec.fileName, filetype: rec.fileType },
        onBeforeRequest: (req) => this.authorize(req),
        onUploadUrlAvailable: () => {
          void db.uploads.update(rec.videoId, { tusUrl: upload.url }).then(() => this.companions.sendPosterOnce(rec.videoId));
        },
        onProgress: (sent) => {
          const now = Date.now();
          if (now - lastWrite < PROGRESS_WRITE_MS) return;
          lastWrite = now;
          void db.uploads
            .where('videoId')
            .equals(rec.videoId)
            .modify((r) => {
              if (r.status === 'uploading' && sent > r.bytesSent) r.bytesSent = sent;
            });
        },
        onChunkComplete: (_size, accepted) => {
          void db.uploads.update(rec.videoId, { bytesSent: accepted });
        },
        onSuccess: () => {
          this.failures = 0;
          void (async () => {
            await this.companions.sendPosterOnce(rec.videoId);
            const done = await db.uploads.get(rec.videoId);
            // The video is on the server now and the feed shows it from there. The file stays (status
            // 'done') so the uploader's card plays it while the server processes the video; the feed
            // forgets it once the video is ready (forgetProcessedUploads).
            await db.uploads.update(rec.videoId, { status: 'done', bytesSent: rec.size, doneAt: Date.now() });
            await this.companions.sendCaptionsIfUnsent(rec.videoId);
            if (done) this.o.events?.onSuccess?.({ ...done, status: 'done', bytesSent: done.size });
            finish('next');
          })();
        },
        onError: (err) => {
          void (async () => {
            if (!this.active.has(rec.videoId)) return finish('next'); // cancelled
            const refusal = serverRefusal(err);
            if (!refusal || isTransient(refusal.status) || !this.isOnline()) {
              await db.uploads.update(rec.videoId, { status: 'paused' });
              this.scheduleRetry();
              return finish('stopped');
            }
            if (refusal.code === 'upload_expired') {
              // Too old on the server: start over (the file is still here).
              await db.uploads.update(rec.videoId, { tusUrl: null, bytesSent: 0, posterSent: false, status: 'queued' });
              return finish('next');
            }
            // The server's sentence, or null: the screen has its own for a refusal without one.
            await db.uploads.update(rec.videoId, { status: 'failed', error: refusal.message || null });
            const failed = await db.uploads.get(rec.videoId);
            if (failed) this.o.events?.onFailure?.(failed, refusal.message);
            finish('next');
          })();
        },
      });
      this.active.set(rec.videoId, { upload, finish });
      void db.uploads.update(rec.videoId, { status: 'uploading' }).then(() => upload.start());
    });
  }
}
