// The light entry for other features (the feed): pending items, and resuming the queue when
// something is waiting. The queue itself (tus-js-client) and useUploadQueue load with the dialog.
export { usePendingUploads, useResumeUploads, toQueuedUploadItem, progressOf, retryUpload, removeUpload, type QueuedUploadItem } from './pending';
export type { UploadRecord, UploadStatus } from './upload-db';
export { readQueuedFile, forgetProcessedUploads } from './local-file';
