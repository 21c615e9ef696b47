import { useId } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '#client/ui/icons';
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX } from '#sync/protocol/limits';
import { ShrinkOffer } from '../shrink/ShrinkOffer';
import { useUploadDialog, type UploadDialogProps } from './useUploadDialog';
import './upload.css';

/**
 * The upload dialog of the product's copy: Title, Description (optional), a video picker (max 2 minutes),
 * a progress bar, Cancel, and Upload reading 'Uploading... N%'. Its state and effects are
 * useUploadDialog.ts; this is what the member sees.
 */
export function UploadDialog(props: UploadDialogProps) {
  const d = useUploadDialog(props);
  const { title, setTitle, description, setDescription, file } = d.fields;
  const ids = { title: useId(), description: useId(), file: useId(), hint: useId(), captions: useId() };
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
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
          <form className="upload-form" onSubmit={(e) => void d.onSubmit(e)} noValidate>
            <div className="field">
              <label htmlFor={ids.title}>Title</label>
              <input
                id={ids.title}
                value={title}
                maxLength={VIDEO_TITLE_MAX}
                disabled={d.busy}
                placeholder="Enter video title"
                onChange={(e) => setTitle(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.description}>Description (optional)</label>
              <textarea
                id={ids.description}
                value={description}
                maxLength={VIDEO_DESCRIPTION_MAX}
                rows={3}
                disabled={d.busy}
                placeholder="Describe your video"
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.file}>Video File (max 2 minutes)</label>
              <input
                id={ids.file}
                ref={d.fileInput}
                type="file"
                accept="video/*"
                disabled={d.busy || d.shrinking}
                aria-describedby={ids.hint}
                onChange={(e) => void d.onPick(e.target.files?.[0] ?? null)}
              />
              <p id={ids.hint} className="hint">
                {file ? `${file.name} (${(file.size / 1048576).toFixed(1)} MB)` : 'MP4, MOV or WebM, up to 120MB.'}
              </p>
            </div>
            <ShrinkOffer state={d.shrink.state} onShrink={() => void d.shrink.accept()} onKeepOriginal={d.shrink.keepOriginal} />
            <div className="field">
              <label htmlFor={ids.captions}>Captions (optional, WebVTT)</label>
              <input
                id={ids.captions}
                ref={d.captionsInput}
                type="file"
                accept=".vtt,text/vtt"
                disabled={d.busy}
                onChange={(e) => void d.onPickCaptions(e.target.files?.[0] ?? null)}
              />
            </div>
            {d.uploading ? <UploadProgress progress={d.progress} online={d.online} /> : null}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={d.onCancel}>
                Cancel
              </button>
              <button type="submit" className="button primary" disabled={d.busy || d.shrinking}>
                {d.busy ? `Uploading... ${d.progress}%` : 'Upload'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function UploadProgress({ progress, online }: { progress: number; online: boolean }) {
  return (
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
  );
}
