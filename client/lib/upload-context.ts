import { createContext, useContext } from 'react';

/** Lets the header's Upload button and the feed's 'Upload First Video' open the one upload dialog. */
export const UploadDialogContext = createContext<{ openUpload(): void }>({ openUpload: () => {} });

export function useOpenUpload(): () => void {
  return useContext(UploadDialogContext).openUpload;
}
