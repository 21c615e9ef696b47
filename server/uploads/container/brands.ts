/**
 * The `ftyp` major brands of what phones, cameras, browsers and our own client record
 * (docs/decisions/0021-hostile-media.md). Anything else that starts with an `ftyp` box is an image
 * (heic, avif), audio (M4A), a DASH segment, or made by hand, and is not a video we accept.
 */
const VIDEO_BRANDS: ReadonlySet<string> = new Set([
  // ISO base media: ffmpeg and Android write isom / mp42, browsers' recorders iso5 / iso6, mediabunny isom.
  ...['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1'],
  // QuickTime (iPhone), Apple's M4V, 3GPP / 3GPP2 phones.
  ...['qt  ', 'M4V ', 'M4VH', 'M4VP', '3gp4', '3gp5', '3gp6', '3g2a'],
  // Sony's cameras and phones.
  ...['XAVC', 'MSNV'],
]);

export const isVideoBrand = (brand: string) => VIDEO_BRANDS.has(brand);
