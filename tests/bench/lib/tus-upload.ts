import { randomUUID } from 'node:crypto';
import { DefaultHttpStack, Upload, type DetailedError } from 'tus-js-client';

export interface TusUploadOptions {
  /** Origin of the server (or of a proxy in front of it). */
  origin: string;
  token: string;
  data: Buffer;
  videoId?: string;
  title?: string;
  chunkSize?: number;
  retryDelays?: number[];
  /** Resume this upload instead of creating one. */
  uploadUrl?: string;
  /** Called with the upload URL as soon as the server created it (a client would persist it). */
  onUrl?: (url: string) => void;
  onProgress?: (sent: number, total: number) => void;
  /**
   * How much of a PATCH body tus-js-client's Node HTTP stack hands to the socket per write. It
   * writes in pieces of the request's highWaterMark, 16 KiB by default: 6 400 writes per 100 MiB,
   * about 4x the client CPU of a raw PUT that writes its buffer in one call.
   */
  writeBytes?: number;
}

export interface TusUploadResult {
  url: string;
  videoId: string;
}

/** One upload with tus-js-client in Node, as the PWA does it: bearer token, metadata, retries. */
export function tusUpload(o: TusUploadOptions): Promise<TusUploadResult> & { upload: Upload } {
  const videoId = o.videoId ?? randomUUID();
  let upload!: Upload;
  const done = new Promise<TusUploadResult>((ok, fail) => {
    upload = new Upload(o.data, {
      endpoint: `${o.origin}/files/`,
      ...(o.uploadUrl ? { uploadUrl: o.uploadUrl } : {}),
      headers: { authorization: `Bearer ${o.token}` },
      metadata: { videoId, title: o.title ?? 'Bench upload', filename: 'bench.mp4', filetype: 'video/mp4' },
      chunkSize: o.chunkSize ?? 8 * 1024 * 1024,
      retryDelays: o.retryDelays ?? [],
      storeFingerprintForResuming: false,
      ...(o.writeBytes ? { httpStack: new DefaultHttpStack({ highWaterMark: o.writeBytes }) } : {}),
      onUploadUrlAvailable: () => {
        if (upload.url) o.onUrl?.(upload.url);
      },
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      onError: (e: Error | DetailedError) => fail(e),
      onSuccess: () => ok({ url: upload.url ?? '', videoId }),
    });
    upload.start();
  });
  return Object.assign(done, { upload });
}
