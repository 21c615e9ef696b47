import { useEffect, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { uploadsDb, type UploadRecord, type UploadStatus } from './upload-db';
import { useAfterFirstScreen } from '#client/lib/after-first-screen';

/** A queued upload as the feed shows it, at once and marked pending, until the server has the video. */
export interface QueuedUploadItem {
  id: string;
  user_id: string;
  user_name: string;
  title: string;
  description: string;
  poster_url: string | null;
  created_at: number;
  /** 0-100. */
  progress: number;
  status: UploadStatus;
  error: string | null;
}

export function progressOf(r: Pick<UploadRecord, 'bytesSent' | 'size'>): number {
  return r.size > 0 ? Math.min(100, Math.floor((r.bytesSent / r.size) * 100)) : 0;
}

// Object URLs of posters, made once per record and revoked when the record goes away.
const posterUrls = new Map<string, { blob: Blob; url: string }>();
function posterUrl(r: UploadRecord): string | null {
  if (!r.posterBlob) return null;
  const known = posterUrls.get(r.videoId);
  if (known?.blob === r.posterBlob) return known.url;
  if (known) URL.revokeObjectURL(known.url);
  const url = URL.createObjectURL(r.posterBlob);
  posterUrls.set(r.videoId, { blob: r.posterBlob, url });
  return url;
}
function releasePosters(keep: Set<string>): void {
  for (const [id, p] of posterUrls) {
    if (!keep.has(id)) {
      URL.revokeObjectURL(p.url);
      posterUrls.delete(id);
    }
  }
}

export function toQueuedUploadItem(r: UploadRecord): QueuedUploadItem {
  return {
    id: r.videoId,
    user_id: r.userId,
    title: r.title,
    description: r.description,
    poster_url: posterUrl(r),
    user_name: r.userName,
    created_at: r.createdAt,
    progress: progressOf(r),
    status: r.status,
    error: r.error,
  };
}

/** Starts the queue (a separate chunk with tus-js-client) only when something is waiting. */
function ensureQueueRunning(): void {
  import('./queue-instance').then(
    (m) => m.getUploadQueue().resumeAll(),
    // The chunk could not load (offline before it was cached): try again when the network returns.
    () => window.addEventListener('online', ensureQueueRunning, { once: true }),
  );
}

/** A failed upload's Retry on its feed card (the queue's chunk loads then). */
export async function retryUpload(videoId: string): Promise<void> {
  const { getUploadQueue } = await import('./queue-instance');
  await getUploadQueue().retry(videoId);
}

/** A queued or failed upload's Remove on its feed card: stopped, ended on the server when started there, and forgotten. */
export async function removeUpload(videoId: string): Promise<void> {
  const { getUploadQueue } = await import('./queue-instance');
  await getUploadQueue().cancel(videoId);
}

const UNFINISHED = ['queued', 'uploading', 'paused'];

/**
 * A live read of the uploads database, `initial` until the first screen is drawn: the database's
 * schema and first read were a long task of a slow phone's first signed-in screen, which shows the
 * feed's cards first (docs/benchmarks.md, "First visit").
 */
function useUploadsRead<T>(read: (db: ReturnType<typeof uploadsDb>) => Promise<T>, deps: unknown[], initial: T): T {
  const opened = useAfterFirstScreen();
  return useLiveQuery(() => (opened ? read(uploadsDb()) : initial), [opened, ...deps], initial);
}

/**
 * Resumes this user's unfinished uploads (after a reload or an app restart) without loading
 * tus-js-client unless something is waiting. For the signed-in layout.
 */
export function useResumeUploads(userId: string | null | undefined): void {
  const waiting = useUploadsRead(
    async (db) =>
      !!userId &&
      (await db.uploads
        .where('userId')
        .equals(userId)
        .filter((r) => UNFINISHED.includes(r.status))
        .count()) > 0,
    [userId],
    false,
  );
  useEffect(() => {
    if (waiting) ensureQueueRunning();
  }, [waiting]);
}

/**
 * The signed-in user's queued uploads, newest first, as pending feed items. Using it also resumes
 * unfinished uploads after a reload or an app restart. Read once the first screen is drawn
 * (useUploadsRead): an upload card follows the feed's first cards.
 */
export function usePendingUploads(userId?: string | null): QueuedUploadItem[] {
  const records = useUploadsRead((db) => (userId ? db.uploads.where('userId').equals(userId).toArray() : db.uploads.toArray()), [userId], [] as UploadRecord[]);
  const unfinished = records.some((r) => r.status === 'queued' || r.status === 'uploading' || r.status === 'paused');
  useEffect(() => {
    if (unfinished) ensureQueueRunning();
  }, [unfinished]);
  useEffect(() => {
    releasePosters(new Set(records.map((r) => r.videoId)));
  }, [records]);
  return useMemo(
    () =>
      records
        .filter((r) => r.status !== 'done')
        .sort((a, b) => b.createdAt - a.createdAt)
        .map(toQueuedUploadItem),
    [records],
  );
}
