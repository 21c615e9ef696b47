import { toast } from '#client/ui/toast';
import type { UploadProblem } from '#client/sync/uploads/checks';

/** A toast's two lines. */
export interface ToastCopy {
  title: string;
  description: string;
}

// The product's copy, verbatim; the duration and captions checks are ours
// (docs/decisions/0012-videos-checked-by-content-resumable-and-ranged.md).
export const UPLOAD_PROBLEMS: Record<UploadProblem, ToastCopy> = {
  too_large: { title: 'File too large', description: 'Please select a video under 120MB (approximately 2 minutes)' },
  invalid_type: { title: 'Invalid file type', description: 'Please select a video file' },
  missing_info: { title: 'Missing information', description: 'Please provide a title and select a video file' },
  too_long: { title: 'Video too long', description: 'Please select a video of 2 minutes or less' },
  invalid_captions: { title: 'Invalid captions file', description: 'Please select a WebVTT (.vtt) file of at most 100 KB' },
};

export const UPLOADED: ToastCopy = { title: 'Video uploaded!', description: 'Your video has been shared successfully' };
export const UPLOAD_FAILED_TITLE = 'Upload failed';
export const UPLOAD_FAILED_FALLBACK = 'Something went wrong. Please try again.';
export const CAPTIONS_REFUSED: ToastCopy = { title: 'Captions not saved', description: 'The captions file was refused.' };

/** Says why a file or the form was refused, as a toast. */
export function toastProblem(problem: UploadProblem): void {
  // A share kept by an older service worker may carry something else: it was a refused file all the same.
  const copy = UPLOAD_PROBLEMS[problem] ?? UPLOAD_PROBLEMS.invalid_type;
  toast.error(copy.title, { description: copy.description });
}
