/**
 * What the server's ladder and the client's player agree on (docs/media.md): segment length, and
 * the short side of the lowest rung, which data saver caps playback at.
 */
export const HLS_SEGMENT_SECONDS = 2;
export const LOWEST_RUNG_SHORT_SIDE = 360;
