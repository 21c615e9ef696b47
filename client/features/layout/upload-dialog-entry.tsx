// Default export for React.lazy: the upload dialog of the uploads feature, in its own chunk.
export { UploadDialog as default } from '../upload/components/UploadDialog';
