// The light entry for the feed: pending items and queue resumption, without tus-js-client or the dialog.
export { usePendingUploads, type PendingFeedItem } from './api/pending';
