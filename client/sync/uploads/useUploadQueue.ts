import { useCallback, useEffect, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { getUploadQueue } from './queue-instance';
import { uploadsDb, type UploadRecord } from './upload-db';
import type { NewUpload } from './upload-queue';

export interface UploadQueueApi {
  enqueue(input: NewUpload): Promise<void>;
  cancel(videoId: string): Promise<void>;
  retry(videoId: string): Promise<void>;
  /** Every local upload record (newest first), live. */
  list: UploadRecord[];
}

/** The upload dialog's access to the queue (loaded with the dialog, so tus-js-client stays out of the main bundle). */
export function useUploadQueue(): UploadQueueApi {
  const list = useLiveQuery(() => uploadsDb().uploads.orderBy('createdAt').reverse().toArray(), [], [] as UploadRecord[]);
  // Opening the dialog also resumes anything left unfinished.
  useEffect(() => getUploadQueue().resumeAll(), []);
  const enqueue = useCallback((input: NewUpload) => getUploadQueue().enqueue(input), []);
  const cancel = useCallback((videoId: string) => getUploadQueue().cancel(videoId), []);
  const retry = useCallback((videoId: string) => getUploadQueue().retry(videoId), []);
  return useMemo(() => ({ enqueue, cancel, retry, list }), [enqueue, cancel, retry, list]);
}
