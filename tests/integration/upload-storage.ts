import { existsSync, readdirSync } from 'node:fs';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { AppDeps } from '#server/context';
import { createS3Client } from '#server/storage/s3-client';

/**
 * What the upload suites look at, on either storage (they run on disk and, in the `s3` project, on
 * a bucket): the stored media through deps.media, and what tus keeps of unfinished uploads in
 * DATA_DIR/uploads or at the bucket's root.
 */

/** A media object's bytes (MediaNotFound when missing). */
export async function readMedia(deps: AppDeps, key: string): Promise<Buffer> {
  return Buffer.from(await new Response(await deps.media.read(key)).arrayBuffer());
}

export async function mediaExists(deps: AppDeps, key: string): Promise<boolean> {
  return (await deps.media.stat(key)) !== null;
}

/** Names (not keys) of the media objects directly in `folder` (a member's id: originals and posters). */
export async function mediaNames(deps: AppDeps, folder: string): Promise<string[]> {
  return (await deps.media.listFiles(folder)).map((k) => k.slice(folder.length + 1)).sort();
}

/**
 * Every object tus keeps, optionally only an upload's: on disk the files in DATA_DIR/uploads; on S3
 * the objects at the bucket's root (`{id}`, `{id}.info`, `{id}.part`) and the multipart uploads still
 * open (as `{id} (multipart)`).
 */
export async function tusObjects(deps: AppDeps, uploadId = ''): Promise<string[]> {
  const storage = deps.config.storage;
  if (storage.kind === 'disk') {
    const dir = deps.config.uploadsDir;
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(uploadId)) : [];
  }
  const client = createS3Client(storage);
  try {
    const objects = await client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: uploadId, Delimiter: '/' }));
    const multipart = await client.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: uploadId }));
    return [
      ...(objects.Contents ?? []).map((o) => o.Key ?? ''),
      ...(multipart.Uploads ?? []).filter((u) => !u.Key?.startsWith('media/')).map((u) => `${u.Key} (multipart)`),
    ].sort();
  } finally {
    client.destroy();
  }
}

/** Every media key, in every folder (none lives at the top). */
export async function allMediaKeys(deps: AppDeps, folder = ''): Promise<string[]> {
  const keys = folder ? await deps.media.listFiles(folder) : [];
  for (const sub of await deps.media.listFolders(folder)) keys.push(...(await allMediaKeys(deps, folder ? `${folder}/${sub}` : sub)));
  return keys;
}
