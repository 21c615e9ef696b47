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
