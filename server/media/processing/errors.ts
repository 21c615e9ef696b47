/**
 * Why a video could not be processed. `reason` is a sentence a member or an administrator may be
 * shown; `permanent` tells a job runner whether retrying the same file can ever help (a damaged
 * upload cannot, a timeout or a full disk might).
 */
export class MediaProcessingError extends Error {
  constructor(
    readonly reason: string,
    readonly permanent: boolean,
    readonly detail?: string,
  ) {
    super(detail ? `${reason} (${detail})` : reason);
    this.name = 'MediaProcessingError';
  }
}

/**
 * A child that exited with a status: a refusal of the file for good. One killed by a signal from
 * outside (the out-of-memory killer, an operator; our own timeouts reject instead) says nothing
 * about the file, so that try may be retried.
 */
export function childFailure(code: number | null, stderr: string, reason: string): MediaProcessingError {
  const last = stderr.trim().split('\n').pop();
  return code === null ? new MediaProcessingError('processing was interrupted', false, last) : new MediaProcessingError(reason, true, last);
}
