// Default export for React.lazy: the upload dialog (and tus-js-client) in its own chunk.
export { UploadDialog as default } from '#client/features/upload/components/UploadDialog';
