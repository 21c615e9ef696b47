export { UploadDialog } from './components/UploadDialog';
export { useUploadQueue } from './api/use-upload-queue';
export { usePendingUploads, type PendingFeedItem } from './api';
