import { useId, type FormEvent, type RefObject } from 'react';
import { CloseIcon } from '#client/ui/icons';
import { MAX_COMMENT_LENGTH } from '#sync/mutations/limits';
import { MentionSuggestions, optionId } from './MentionSuggestions';
import { useMentionPicker } from './useMentionPicker';
import type { CommentView } from './types';

/** Marks the part of the dialog where Escape is the composer's (the dialog does not close then). */
export const OWNS_ESCAPE = 'data-owns-escape';

interface Props {
  text: string;
  setText(text: string): void;
  replyTo: CommentView | null;
  cancelReply(): void;
  onSubmit(e: FormEvent): void;
  input: RefObject<HTMLInputElement | null>;
}

const replyName = (c: CommentView) => (c.handle ? `@${c.handle}` : c.name.trim() || 'Unknown User');

/** The box at the foot of the dialog: a new comment, or a reply ("Replying to @handle"), with @ suggestions. */
export function CommentComposer({ text, setText, replyTo, cancelReply, onSubmit, input }: Props) {
  const listId = useId();
  const replyingId = useId();
  const picker = useMentionPicker(text, setText, input);
  const escapeIsOurs = picker.open || replyTo !== null;
  return (
    <form className="comment-form" onSubmit={onSubmit} {...{ [OWNS_ESCAPE]: escapeIsOurs ? 'true' : undefined }}>
      {replyTo ? (
        <div className="replying-to">
          <span id={replyingId}>Replying to {replyName(replyTo)}</span>
          <button type="button" className="icon-button" aria-label="Cancel reply" onClick={cancelReply}>
            <CloseIcon size={16} />
          </button>
        </div>
      ) : null}
      <div className="composer-row">
        <div className="composer-input">
          <input
            ref={input}
            // A text box (its name as before) that owns a listbox: aria-activedescendant names the picked one.
            aria-label="Add a comment"
            aria-describedby={replyTo ? replyingId : undefined}
            placeholder="Add a comment..."
            value={text}
            maxLength={MAX_COMMENT_LENGTH}
            aria-autocomplete="list"
            aria-controls={picker.open ? listId : undefined}
            aria-activedescendant={picker.open ? optionId(listId, picker.active) : undefined}
            autoComplete="off"
            onChange={(e) => {
              setText(e.target.value);
              picker.track(e.target.selectionStart, e.target.value);
            }}
            onSelect={(e) => picker.track(e.currentTarget.selectionStart)}
            onBlur={() => picker.track(null)}
            onKeyDown={(e) => {
              if (picker.onKeyDown(e)) return;
              if (e.key === 'Escape' && replyTo) {
                e.preventDefault();
                cancelReply();
              }
            }}
          />
          {picker.open ? (
            <MentionSuggestions id={listId} options={picker.options} active={picker.active} onPick={picker.pick} onHover={picker.setActive} />
          ) : null}
        </div>
        <button type="submit" className="button primary">
          Post
        </button>
      </div>
    </form>
  );
}
