// The protocol's limits as plain numbers, apart from the zod schemas in messages.ts, so the
// client can use them without loading zod on its first screen.

/** Most mutations one push may carry; more is refused with 400 batch_too_large. */
export const MAX_PUSH_BATCH = 100;
/** Newest videos a client keeps in its feed window and receives in a full pull. */
export const FEED_WINDOW = 300;
/** Videos whose comments one pull may follow. */
export const MAX_OPEN_VIDEOS = 50;
/** Comments sent for one video when a client starts following it. */
export const COMMENTS_PER_VIDEO = 200;

/** The newest notifications a full pull carries; older ones are not kept on the device. */
export const NOTIFICATIONS_WINDOW = 50;
/** At most this many notification ids in one markNotificationsRead. */
export const MAX_READ_BATCH = 100;

/**
 * The largest video file an upload may carry, 120 MiB (the product's "under 120MB"): the client
 * checks a picked file against it, the server's tus Upload-Length before any byte.
 */
export const MAX_UPLOAD_BYTES = 125_829_120;
/** The longest video, 2 minutes: the client checks what the browser reads, the server the container's header and then the frames. */
export const MAX_DURATION_MS = 120_000;
/**
 * A view counts once the viewer watched this long, or a shorter video to its end
 * (docs/decisions/0008-the-view-rule.md): the player reports at it, the server decides by it.
 */
export const QUALIFYING_WATCH_MS = 3000;
/** A video's title and description, in characters once trimmed (the upload form's fields stop there too). */
export const VIDEO_TITLE_MAX = 120;
export const VIDEO_DESCRIPTION_MAX = 2000;
/** A captions file (WebVTT): 100 KB is hours of subtitles. */
export const MAX_CAPTIONS_BYTES = 100 * 1024;

/** The most members one member may follow: a pull sends them all to the device (sync/entities/registry.ts, `follows`). */
export const MAX_FOLLOWING = 5000;
