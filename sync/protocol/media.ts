/**
 * What the server's ladder and the client's player agree on (docs/media.md): segment length, and
 * the short side of the lowest rung, which data saver caps playback at.
 */
export const HLS_SEGMENT_SECONDS = 2;
export const LOWEST_RUNG_SHORT_SIDE = 360;
/**
 * The starter rung below the ladder (docs/decisions/0027-cold-start.md): what a slow or metered
 * link starts on and stays on. Its first segment is FIRST_SEGMENT_SECONDS long, so the first
 * fetch of a cold tap is small; its keyframes include every one of the ladder's.
 */
export const STARTER_RUNG_SHORT_SIDE = 240;
export const FIRST_SEGMENT_SECONDS = 1;
