// Default export for React.lazy: the upload dialog of the uploads feature, in its own chunk.
export default function UploadDialogEntry(_props: { open: boolean; onOpenChange(open: boolean): void }) {
  return null;
}
