/**
 * What the browser says about this device's connection (the Network Information API, Chromium only).
 * Where the API is missing nothing is known, and callers treat the connection as fine: an offer to
 * save data is never made on a guess.
 */
interface NetworkInformationLike {
  saveData?: boolean;
  type?: string;
  effectiveType?: string;
  /** Estimated downlink in Mbit/s (Chromium rounds it and caps it at 10). */
  downlink?: number;
}

/** Why the connection looks costly, or null when it does not (or the browser does not say). */
export type CostlyReason = 'save-data' | 'cellular' | 'slow';

/** Below this estimated downlink (Mbit/s) a connection counts as slow. */
const SLOW_DOWNLINK_MBPS = 5;
const SLOW_TYPES = new Set(['slow-2g', '2g', '3g']);

/** navigator.connection, or undefined where the browser does not say. */
export function networkInformation(): NetworkInformationLike | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
}

/** The first reason this connection is slow, metered or in data-saver mode; null if none is known. */
export function costlyConnection(info: NetworkInformationLike | undefined = networkInformation()): CostlyReason | null {
  if (!info) return null;
  if (info.saveData === true) return 'save-data';
  if (info.type === 'cellular') return 'cellular';
  if (info.effectiveType && SLOW_TYPES.has(info.effectiveType)) return 'slow';
  if (typeof info.downlink === 'number' && info.downlink > 0 && info.downlink < SLOW_DOWNLINK_MBPS) return 'slow';
  return null;
}
