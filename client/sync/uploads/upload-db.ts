import Dexie, { type DexieOptions, type EntityTable } from 'dexie';

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'failed' | 'done';

/** One queued upload, kept with its file so it survives reloads, lost connections and app restarts. */
export interface UploadRecord {
  videoId: string;
  userId: string;
  userName: string;
  title: string;
  description: string;
  file: Blob;
  fileName: string;
  fileType: string;
  size: number;
  durationMs: number | null;
  posterBlob: Blob | null;
  posterSent: boolean;
  /** Optional WebVTT captions, sent once the video exists (PUT /api/videos/:id/captions). */
  captionsBlob?: Blob | null;
  captionsSent?: boolean;
  /** The tus upload URL once the server created it: the only thing needed to resume. */
  tusUrl: string | null;
  /** Last offset the server acknowledged. */
  bytesSent: number;
  status: UploadStatus;
  error: string | null;
  createdAt: number;
  /** When the server took the whole file; the record then only keeps the file for playback while processing. */
  doneAt?: number;
}

/** Its own database, so the sync engine's schema and this queue evolve independently. */
export class UploadsDb extends Dexie {
  uploads!: EntityTable<UploadRecord, 'videoId'>;

  /** `options` names the IndexedDB to use (tests pass fake-indexeddb's) instead of the browser's. */
  constructor(name = 'vidi-uploads', options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ uploads: 'videoId, userId, status, createdAt' });
  }
}

let db: UploadsDb | undefined;
export function uploadsDb(): UploadsDb {
  db ??= new UploadsDb();
  return db;
}
