export { UploadDialog } from './components/UploadDialog';
export { useUploadQueue } from '#client/sync/uploads/use-upload-queue';
export { usePendingUploads, type PendingFeedItem } from '#client/sync/uploads';
