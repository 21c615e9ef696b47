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
