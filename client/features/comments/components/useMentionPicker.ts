import { useState, type KeyboardEvent, type RefObject } from 'react';
import { useFollowedPeople } from '../api/useFollowedPeople';
import { insertMention, mentionQueryAt, suggestMentions, type MentionCandidate } from './mention-suggest';

export interface MentionPicker {
  open: boolean;
  options: MentionCandidate[];
  active: number;
  setActive(i: number): void;
  pick(p: MentionCandidate): void;
  /** The input's caret moved, or its text changed to `value`. */
  track(caret: number | null, value?: string): void;
  /** Arrow keys, Enter/Tab and Escape while the list is open; true when the key was the list's. */
  onKeyDown(e: KeyboardEvent<HTMLInputElement>): boolean;
}

/** The @ suggestions of a text input: which handle is typed at the caret, whom to offer, and picking one. */
export function useMentionPicker(text: string, setText: (t: string) => void, input: RefObject<HTMLInputElement | null>): MentionPicker {
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  // The "@" whose list Escape closed: not offered again until another one is typed.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const query = caret === null ? null : mentionQueryAt(text, caret);
  const [asked, setAsked] = useState(false);
  if (query && !asked) setAsked(true);
  const people = useFollowedPeople(asked);
  const options = query && query.start !== dismissed ? suggestMentions(people, query.query) : [];
  const open = options.length > 0;
  const at = Math.min(active, Math.max(0, options.length - 1));

  const pick = (p: MentionCandidate) => {
    if (!query || caret === null) return;
    const next = insertMention(text, query, caret, p.handle);
    setText(next.text);
    setCaret(next.caret);
    setActive(0);
    // After React has put the new text in: the caret goes after the inserted handle.
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): boolean => {
    if (!open) return false;
    const step = { ArrowDown: 1, ArrowUp: -1 }[e.key];
    if (step) setActive((at + step + options.length) % options.length);
    else if (e.key === 'Enter' || e.key === 'Tab') pick(options[at]!);
    else if (e.key === 'Escape') setDismissed(query?.start ?? null);
    else return false;
    e.preventDefault();
    return true;
  };

  const track = (c: number | null, value = text) => {
    setCaret(c);
    if (c !== caret) setActive(0);
    if (dismissed !== null && (c === null || mentionQueryAt(value, c)?.start !== dismissed)) setDismissed(null);
  };

  return { open, options, active: at, setActive, pick, track, onKeyDown };
}
