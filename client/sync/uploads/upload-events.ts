import type { UploadRecord } from './upload-db';

/**
 * What the upload queue has to tell the member. The queue only reports; the app says it on screen
 * (client/app/sync-bridge.ts registers the upload feature's toasts), so nothing in client/sync
 * holds screen text.
 */
export interface UploadEvents {
  /** The server has the whole video. */
  onSuccess?(record: UploadRecord): void;
  /** Refused for good; `reason` is the server's sentence, '' when it gave none. */
  onFailure?(record: UploadRecord, reason: string): void;
  /** The captions were refused for good; `reason` is the server's sentence, '' when it gave none. */
  onCaptionsRefused?(videoId: string, reason: string): void;
}

let announcer: UploadEvents = {};

/** Sets who hears the queue's outcomes (light: the queue's own chunk need not be loaded). */
export function announceUploadsWith(events: UploadEvents): void {
  announcer = events;
}

/** The queue's side: forwards to whoever was set, at the time of the event. */
export const uploadEvents: Required<UploadEvents> = {
  onSuccess: (record) => announcer.onSuccess?.(record),
  onFailure: (record, reason) => announcer.onFailure?.(record, reason),
  onCaptionsRefused: (videoId, reason) => announcer.onCaptionsRefused?.(videoId, reason),
};
