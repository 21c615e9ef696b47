import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { toast } from 'sonner';
import { useSession } from '#client/lib/session';
import { useOnline } from '#client/lib/useOnline';
import { CloseIcon } from '#client/ui/icons';
import { checkCaptions, checkFile, checkUpload, checkVideoBytes, TOO_LONG, MAX_DURATION_MS, type ToastCopy } from '#client/sync/uploads/checks';
import { grabPoster, readVideoDuration } from '#client/sync/uploads/media-probe';
import { progressOf } from '#client/sync/uploads/pending';
import { useUploadQueue } from '#client/sync/uploads/useUploadQueue';
import { ShrinkOffer } from '../shrink/ShrinkOffer';
import { useShrinkOffer } from '../shrink/useShrinkOffer';
import './upload.css';

interface Props {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** A file handed in from outside the dialog (shared into the app): chosen as if picked. */
  initialFile?: File | null;
  /** A title suggested with it (a share's title or text); the member's own typing is never replaced. */
  initialTitle?: string;
}

const showError = (c: ToastCopy) => toast.error(c.title, { description: c.description });

/**
 * The upload dialog of the product's copy: Title, Description (optional), a video picker (max 2 minutes),
 * a progress bar, Cancel, and Upload reading 'Uploading... N%'. The upload itself runs in the
 * queue, so closing the dialog (or losing the network, or reloading) does not stop it.
 */
export function UploadDialog({ open, onOpenChange, initialFile = null, initialTitle }: Props) {
  const session = useSession();
  const user = session.status === 'signedIn' ? session.user : null;
  const queue = useUploadQueue();
  const online = useOnline();
  const ids = { title: useId(), description: useId(), file: useId(), hint: useId(), captions: useId() };
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

  // The queue marks a record done (or, cancelled elsewhere, deletes it) once the server has the video:
  // that is this dialog's success.
  const seen = useRef(false);
  const status = current?.status;
  useEffect(() => {
    if (!currentId) {
      seen.current = false;
      return;
    }
    if (status === 'done') {
      if (!preparing) {
        reset();
        onOpenChange(false);
      }
      return;
    }
    if (status === undefined) {
      if (seen.current && !preparing) {
        reset();
        onOpenChange(false);
      }
      return;
    }
    seen.current = true;
    if (status === 'failed') {
      // The queue already told the user why ('Upload failed'); keep the form for another try.
      setCurrentId(null);
      void queue.cancel(currentId);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentId, status, preparing]);

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
      showError(problem);
      return clearFile();
    }
    setFile(picked);
    setDurationMs(null);
    const d = await readVideoDuration(picked);
    if (d !== null && d > MAX_DURATION_MS) {
      showError(TOO_LONG);
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
      showError(problem);
      if (captionsInput.current) captionsInput.current.value = '';
    }
    setCaptions(picked && !problem ? picked : null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (uploading || preparing || shrinking) return;
    // An offer not answered is an offer declined: what is chosen now is what goes up.
    if (shrink.state.step !== 'shrunk') shrink.reset();
    const problem = checkUpload({ title, file, durationMs });
    if (problem || !file || !user) {
      showError(problem ?? checkUpload({ title: '', file: null, durationMs: null })!);
      return;
    }
    setPreparing(true);
    const videoId = crypto.randomUUID();
    setCurrentId(videoId);
    try {
      const duration = durationMs ?? (await readVideoDuration(file));
      if (duration !== null && duration > MAX_DURATION_MS) {
        setCurrentId(null);
        showError(TOO_LONG);
        return;
      }
      const posterBlob = await grabPoster(file);
      await queue.enqueue({
        videoId,
        userId: user.id,
        userName: user.name,
        title,
        description,
        file,
        fileName: file.name,
        durationMs: duration,
        posterBlob,
        captionsBlob: captions,
      });
      if (!navigator.onLine) {
        // Offline: the upload waits in the queue (and shows as pending in the feed) until the network returns.
        reset();
        onOpenChange(false);
      }
    } catch (err) {
      setCurrentId(null);
      toast.error('Upload failed', { description: err instanceof Error ? err.message : 'Something went wrong. Please try again.' });
    } finally {
      setPreparing(false);
    }
  };

  const onCancel = () => {
    if (currentId) void queue.cancel(currentId);
    reset();
    onOpenChange(false);
  };

  const busy = uploading || preparing;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content upload-dialog">
          <div className="dialog-head">
            <Dialog.Title>Upload Video</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <Dialog.Description className="muted upload-lead">Share a short video of up to 2 minutes.</Dialog.Description>
          <form className="upload-form" onSubmit={(e) => void onSubmit(e)} noValidate>
            <div className="field">
              <label htmlFor={ids.title}>Title</label>
              <input id={ids.title} value={title} maxLength={120} disabled={busy} placeholder="Enter video title" onChange={(e) => setTitle(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.description}>Description (optional)</label>
              <textarea
                id={ids.description}
                value={description}
                maxLength={2000}
                rows={3}
                disabled={busy}
                placeholder="Describe your video"
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.file}>Video File (max 2 minutes)</label>
              <input
                id={ids.file}
                ref={fileInput}
                type="file"
                accept="video/*"
                disabled={busy || shrinking}
                aria-describedby={ids.hint}
                onChange={(e) => void onPick(e.target.files?.[0] ?? null)}
              />
              <p id={ids.hint} className="hint">
                {file ? `${file.name} (${(file.size / 1048576).toFixed(1)} MB)` : 'MP4, MOV or WebM, up to 120MB.'}
              </p>
            </div>
            <ShrinkOffer state={shrink.state} onShrink={() => void shrink.accept()} onKeepOriginal={shrink.keepOriginal} />
            <div className="field">
              <label htmlFor={ids.captions}>Captions (optional, WebVTT)</label>
              <input
                id={ids.captions}
                ref={captionsInput}
                type="file"
                accept=".vtt,text/vtt"
                disabled={busy}
                onChange={(e) => void onPickCaptions(e.target.files?.[0] ?? null)}
              />
            </div>
            {uploading ? (
              <div className="upload-progress">
                <div className="progress-track" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
                  <div className="progress-fill" style={{ width: `${progress}%` }} />
                </div>
                {!online ? (
                  <p className="hint" role="status">
                    You are offline. The upload will continue when you are back online.
                  </p>
                ) : null}
              </div>
            ) : null}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={onCancel}>
                Cancel
              </button>
              <button type="submit" className="button primary" disabled={busy || shrinking}>
                {busy ? `Uploading... ${progress}%` : 'Upload'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
