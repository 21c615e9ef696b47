import { checkFile, type UploadProblem } from './checks';

/**
 * A video shared into Vidi (docs/pwa.md, "Share into Vidi"): the service worker keeps it here when
 * it answers the share target's POST, and the member layout takes it out and opens the upload
 * dialog with it. One record: a newer share replaces an older one. Plain IndexedDB, so the worker's
 * bundle carries no database library for it.
 */
export const SHARED_DB_NAME = 'vidi-shared';
const STORE = 'share';
const KEY = 'latest';

export interface SharedVideo {
  /** The video, or null when the share was refused (`problem` says why: the page shows it). */
  file: File | null;
  problem: UploadProblem | null;
  /** The shared title or text, a suggestion for the video's title. */
  title: string;
  at: number;
}

const VIDEO_TYPES: Record<string, string> = { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm' };

/**
 * The file as the upload dialog's checks see it (client/sync/uploads/checks.ts): a share sometimes
 * comes without a type; its extension then names one, as the manifest's `accept` list allows.
 */
export function typedShare(file: File): File {
  if (file.type) return file;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const type = VIDEO_TYPES[ext];
  return type ? new File([file], file.name, { type, lastModified: file.lastModified }) : file;
}

/** What is kept of a share: the video when it passes the dialog's checks, else only the reason. */
export function sharedRecord(file: File | null, title: string, now = Date.now()): SharedVideo {
  if (!file) return { file: null, problem: 'invalid_type', title, at: now };
  const typed = typedShare(file);
  const problem = checkFile(typed);
  return { file: problem ? null : typed, problem, title, at: now };
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(SHARED_DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB open failed'));
  });
}

async function inStore<T>(factory: IDBFactory, mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest | null): Promise<T> {
  const db = await open(factory);
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve((req?.result ?? null) as T);
      tx.onerror = () => reject(tx.error ?? new Error('indexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('indexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

/** Keeps a share, replacing any earlier one. */
export function putSharedVideo(record: SharedVideo, factory: IDBFactory = indexedDB): Promise<void> {
  return inStore(factory, 'readwrite', (s) => s.put(record, KEY));
}

/**
 * Takes the kept share out (read and deleted in one transaction), or null: handed over once, so a
 * reload does not open it again and two tabs never both get it.
 */
export function takeSharedVideo(factory: IDBFactory = indexedDB): Promise<SharedVideo | null> {
  return inStore<SharedVideo | undefined>(factory, 'readwrite', (s) => {
    const req = s.get(KEY);
    req.onsuccess = () => s.delete(KEY);
    return req;
  }).then((r) => r ?? null);
}
