import type { UploadQueueOptions } from './upload-queue';

/**
 * The files that travel beside an upload's video: its poster (sent as soon as the upload exists on
 * the server) and its captions (sent once the video exists). Each is sent until it lands, also
 * across reloads, and never twice once it has.
 */
export class CompanionFiles {
  /** The last poster send of each video, so the next one waits for it. */
  private readonly posterSends = new Map<string, Promise<void>>();

  constructor(private readonly o: Pick<UploadQueueOptions, 'db' | 'getAccessToken' | 'sendPoster' | 'sendCaptions'>) {}

  /**
   * The poster goes out when the upload URL exists and again (if still unsent) when the upload
   * finishes. Both can fire together for a small file, so sends of one video run one after the
   * other, each re-reading `posterSent` from the database: a poster that landed is never resent,
   * also after a reload. (If the answer was lost, the resend carries the same bytes, which the
   * server treats as a no-op.)
   */
  sendPosterOnce(videoId: string): Promise<void> {
    const next = (this.posterSends.get(videoId) ?? Promise.resolve()).then(() => this.sendPosterIfUnsent(videoId));
    this.posterSends.set(videoId, next);
    void next.finally(() => {
      if (this.posterSends.get(videoId) === next) this.posterSends.delete(videoId);
    });
    return next;
  }

  private async sendPosterIfUnsent(videoId: string): Promise<void> {
    const rec = await this.o.db.uploads.get(videoId);
    if (!rec || rec.posterSent || !rec.posterBlob || !this.o.sendPoster) return;
    const token = await this.o.getAccessToken().catch(() => null);
    if (!token) return;
    const ok = await this.o.sendPoster(videoId, rec.posterBlob, token).catch(() => false);
    if (ok) await this.o.db.uploads.update(videoId, { posterSent: true });
  }

  /** Captions of finished uploads that could not be sent yet (offline at the time): sent at the next run. */
  async sendUnsentCaptions(): Promise<void> {
    const waiting = await this.o.db.uploads
      .where('status')
      .equals('done')
      .filter((r) => !!r.captionsBlob && !r.captionsSent)
      .toArray();
    for (const r of waiting) await this.sendCaptionsIfUnsent(r.videoId);
  }

  async sendCaptionsIfUnsent(videoId: string): Promise<void> {
    const rec = await this.o.db.uploads.get(videoId);
    if (!rec?.captionsBlob || rec.captionsSent || !this.o.sendCaptions) return;
    const token = await this.o.getAccessToken().catch(() => null);
    if (!token) return;
    const ok = await this.o.sendCaptions(videoId, rec.captionsBlob, token).catch(() => false);
    if (ok) await this.o.db.uploads.update(videoId, { captionsSent: true });
  }
}
