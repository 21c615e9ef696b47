/**
 * Checks an uploaded WebVTT caption file before it is stored and served next to a video: the
 * player hands it to the browser's own parser, so anything malformed or oversized is refused here
 * with a sentence the uploader can act on.
 */

export const MAX_CAPTION_BYTES = 100 * 1024;

export type WebVttCheck = { ok: true; text: string } | { ok: false; reason: string };

// hh:mm:ss.ttt (hours may exceed two digits) or mm:ss.ttt.
const TIMESTAMP = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const TIMING = new RegExp(String.raw`^${TIMESTAMP}[ \t]+-->[ \t]+${TIMESTAMP}(?:[ \t]+.*)?$`);

// Tabs, line feeds and carriage returns are text; every other C0 control, DEL and C1 control is not.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function millis(h: string | undefined, m: string, s: string, ms: string): number {
  return ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The first problem with one line, or undefined. Only lines with "-->" are cue timings. */
function checkLine(line: string, n: number): string | undefined {
  if (!line.includes('-->')) return undefined;
  const m = TIMING.exec(line);
  if (!m) return `line ${n} is not a cue timing like "00:01.000 --> 00:04.000"`;
  const start = millis(m[1], m[2]!, m[3]!, m[4]!);
  const end = millis(m[5], m[6]!, m[7]!, m[8]!);
  return end > start ? undefined : `line ${n}: the cue ends before it starts`;
}

export function validateWebVtt(bytes: Uint8Array): WebVttCheck {
  if (bytes.length > MAX_CAPTION_BYTES) return { ok: false, reason: 'the caption file is larger than 100 KB' };
  // TextDecoder drops a leading BOM, which WebVTT allows.
  const text = decode(bytes);
  if (text === undefined) return { ok: false, reason: 'the caption file is not UTF-8 text' };
  if (CONTROL.test(text)) return { ok: false, reason: 'the caption file contains control characters' };
  if (!/^WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text)) return { ok: false, reason: 'the caption file does not start with "WEBVTT"' };
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, line] of lines.entries()) {
    const problem = checkLine(line, i + 1);
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true, text };
}
