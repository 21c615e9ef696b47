import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSession } from '#client/lib/session';
import { useOnline } from '#client/lib/useOnline';
import { toast } from '#client/ui/toast';
import { checkCaptions, checkFile, checkUpload, checkVideoBytes, tooLong } from '#client/sync/uploads/checks';
import { grabPoster, readVideoDuration } from '#client/sync/uploads/media-probe';
import { progressOf } from '#client/sync/uploads/pending';
import { useUploadQueue, type UploadQueueApi } from '#client/sync/uploads/useUploadQueue';
import { useShrinkOffer } from '../shrink/useShrinkOffer';
import { toastProblem, UPLOAD_FAILED_FALLBACK, UPLOAD_FAILED_TITLE } from '../upload-copy';

export interface UploadDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** A file handed in from outside the dialog (shared into the app): chosen as if picked. */
  initialFile?: File | null;
  /** A title suggested with it (a share's title or text); the member's own typing is never replaced. */
  initialTitle?: string | undefined;
}

/**
 * The queue marks a record done (or, cancelled elsewhere, deletes it) once the server has the video:
 * that is the dialog's success. A failed one was announced by the queue; the form stays for another try.
 */
function useCloseWhenSent(
  queue: UploadQueueApi,
  current: { id: string | null; status: string | undefined; preparing: boolean },
  done: () => void,
  forget: () => void,
): void {
  const seen = useRef(false);
  const { id, status, preparing } = current;
  useEffect(() => {
    if (!id) {
      seen.current = false;
      return;
    }
    if (status === 'done' || (status === undefined && seen.current)) {
      if (!preparing) done();
      return;
    }
    if (status === undefined) return;
    seen.current = true;
    if (status === 'failed') {
      forget();
      void queue.cancel(id);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, status, preparing]);
}

/**
 * The upload dialog's state and effects (the view is UploadDialog.tsx): the fields, the checks on
 * each pick, the shrink offer, and handing the upload to the queue, which runs it, so closing the
 * dialog (or losing the network, or reloading) does not stop it.
 */
export function useUploadDialog({ open, onOpenChange, initialFile = null, initialTitle }: UploadDialogProps) {
  const session = useSession();
  const user = session.status === 'signedIn' ? session.user : null;
  const queue = useUploadQueue();
  const online = useOnline();
  const fileInput = useRef<HTMLInputElement>(null);
  const captionsInput = useRef<HTMLInputElement>(null);
  const [captions, setCaptions] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [durationMs, setDurationMs] = useState<number | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const shrink = useShrinkOffer(setFile);
  const shrinking = shrink.state.step === 'shrinking';

  const current = currentId ? queue.list.find((r) => r.videoId === currentId) : undefined;
  const uploading = !!current && current.status !== 'failed' && current.status !== 'done';
  const progress = current ? progressOf(current) : 0;

  const reset = () => {
    shrink.reset();
    setTitle('');
    setDescription('');
    setFile(null);
    setDurationMs(null);
    setCurrentId(null);
    setCaptions(null);
    if (fileInput.current) fileInput.current.value = '';
    if (captionsInput.current) captionsInput.current.value = '';
  };
  const close = () => {
    reset();
    onOpenChange(false);
  };

  useCloseWhenSent(queue, { id: currentId, status: current?.status, preparing }, close, () => setCurrentId(null));

  const clearFile = () => {
    shrink.reset();
    setFile(null);
    setDurationMs(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const onPick = async (picked: File | null) => {
    if (!picked) return clearFile();
    // By name and type first, then by the first bytes: a text file renamed .mp4 never starts an upload.
    const problem = checkFile(picked) ?? (await checkVideoBytes(picked));
    if (problem) {
      toastProblem(problem);
      return clearFile();
    }
    setFile(picked);
    setDurationMs(null);
    const d = await readVideoDuration(picked);
    if (tooLong(d)) {
      toastProblem('too_long');
      return clearFile();
    }
    setDurationMs(d);
    // Only now, with a file that passed every check, may shrinking it be offered.
    void shrink.consider(picked);
  };

  // A closed dialog does no work: a shrink still running stops, and the original stays chosen.
  useEffect(() => {
    if (!open && shrinking) shrink.keepOriginal();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, shrinking]);

  useEffect(() => {
    if (!open || !initialFile) return;
    // The picker shows the file too, as if the member had chosen it (Chromium accepts a DataTransfer's list).
    if (fileInput.current && typeof DataTransfer === 'function') {
      const list = new DataTransfer();
      list.items.add(initialFile);
      fileInput.current.files = list.files;
    }
    void onPick(initialFile);
    if (initialTitle) setTitle((typed) => typed || initialTitle);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initialFile]);

  const onPickCaptions = async (picked: File | null) => {
    const problem = picked ? await checkCaptions(picked) : null;
    if (problem) {
      toastProblem(problem);
      if (captionsInput.current) captionsInput.current.value = '';
    }
    setCaptions(picked && !problem ? picked : null);
  };

  const send = async (chosen: File, member: { id: string; name: string }) => {
    setPreparing(true);
    const videoId = crypto.randomUUID();
    setCurrentId(videoId);
    try {
      const duration = durationMs ?? (await readVideoDuration(chosen));
      if (tooLong(duration)) {
        setCurrentId(null);
        toastProblem('too_long');
        return;
      }
      const posterBlob = await grabPoster(chosen);
      const upload = { videoId, userId: member.id, userName: member.name, title, description, file: chosen, fileName: chosen.name };
      await queue.enqueue({ ...upload, durationMs: duration, posterBlob, captionsBlob: captions });
      // Offline: the upload waits in the queue (and shows as pending in the feed) until the network returns.
      if (!navigator.onLine) close();
    } catch (err) {
      setCurrentId(null);
      toast.error(UPLOAD_FAILED_TITLE, { description: err instanceof Error ? err.message : UPLOAD_FAILED_FALLBACK });
    } finally {
      setPreparing(false);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (uploading || preparing || shrinking) return;
    // An offer not answered is an offer declined: what is chosen now is what goes up.
    if (shrink.state.step !== 'shrunk') shrink.reset();
    const problem = checkUpload({ title, file, durationMs });
    if (problem || !file || !user) return toastProblem(problem ?? 'missing_info');
    await send(file, user);
  };

  const onCancel = () => {
    if (currentId) void queue.cancel(currentId);
    close();
  };

  return {
    fields: { title, setTitle, description, setDescription, file },
    fileInput,
    captionsInput,
    shrink,
    shrinking,
    uploading,
    busy: uploading || preparing,
    progress,
    online,
    onPick,
    onPickCaptions,
    onSubmit,
    onCancel,
  };
}
