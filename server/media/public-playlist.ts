import type { Context } from 'hono';
import type { AppEnv } from '../context';
import { mediaContentType } from './urls';

// A processed video's master playlist, {userId}/{videoId}/{jobId}/master.m3u8 (docs/media.md).
const MASTER_RE = /^([A-Za-z0-9-]{1,64})\/([0-9a-f-]{36})\/([A-Za-z0-9_][A-Za-z0-9._-]{0,120})\/master\.m3u8$/;

/**
 * Short, unlike the immutable renditions: the answer depends on MEDIA_PUBLIC_BASE_URL and on the
 * video still being ready, so a changed setting reaches players within minutes.
 */
const MASTER_CACHE = 'public, max-age=300';

/** Makes each relative URI of a playlist (URI lines and URI="…" attributes) absolute under `folderUrl`. */
export function rebasePlaylist(text: string, folderUrl: string): string {
  const rebase = (uri: string) => (/^[a-z][a-z0-9+.-]*:|^\//i.test(uri) ? uri : `${folderUrl}/${uri}`);
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (!trimmed) return line;
      if (!trimmed.startsWith('#')) return line.replace(trimmed, rebase(trimmed));
      return line.replace(/URI="([^"]*)"/g, (_, uri: string) => `URI="${rebase(uri)}"`);
    })
    .join('\n');
}

/**
 * The master playlist of a ready video with its variant playlists at MEDIA_PUBLIC_BASE_URL, whose
 * relative init and segment URIs then resolve there too: the browser streams from the bucket or CDN
 * and the app serves only this small file. Null (the ordinary /media answer) when the base is unset,
 * the key is not a master playlist, or its video is not ready under this job (a video only its
 * owner sees keeps everything behind the app).
 */
export async function publicMasterPlaylist(c: Context<AppEnv>, key: string): Promise<Response | null> {
  const { config, db, media, log } = c.var.deps;
  const base = config.media.publicBaseUrl;
  const m = base ? MASTER_RE.exec(key) : null;
  if (!base || !m) return null;
  const folder = key.slice(0, -'/master.m3u8'.length);
  let ready: boolean;
  try {
    const row = await db.selectFrom('videos').select('media_key').where('id', '=', m[2]!).where('media_status', '=', 'ready').executeTakeFirst();
    ready = row?.media_key === folder;
  } catch (e) {
    // The ordinary answer is always right, only proxied: better than failing the play.
    log.error(`media: could not look up the video of ${key}`, e);
    return null;
  }
  if (!ready) return null;
  let text: string;
  try {
    text = await new Response(await media.read(key)).text();
  } catch {
    // Missing or the store failing: the ordinary path answers 404 or 503 as for any file.
    return null;
  }
  const body = rebasePlaylist(text, `${base}/${folder}`);
  const headers = {
    'Content-Type': mediaContentType(key),
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': MASTER_CACHE,
    'X-Content-Type-Options': 'nosniff',
  };
  return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
}
