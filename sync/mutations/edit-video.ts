import { MutationError } from '../protocol/error-codes';
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX } from '../protocol/limits';
import { hasHiddenFormatting, NO_CONTROL_CHARS, NO_CONTROL_CHARS_BUT_LINE_BREAKS } from '../rest-api/shown-text';
import { defineMutation } from './define-mutation';

/** The refusal of one text by the rules of text shown to others (sync/rest-api/shown-text.ts), as shownText words it. */
function shownTextProblem(text: string, subject: string, lines: 'one' | 'several'): string | null {
  if (!(lines === 'one' ? NO_CONTROL_CHARS : NO_CONTROL_CHARS_BUT_LINE_BREAKS).test(text)) return `${subject} must not contain control characters.`;
  if (hasHiddenFormatting(text)) return `${subject} must not contain invisible formatting characters.`;
  return null;
}

/**
 * Why a video's (trimmed) title and description cannot be kept, in the upload's words
 * (server/uploads/metadata.ts), or null. Zod-free, so the device replays an edit on its first screen
 * and the edit dialog says the same sentence before anything is queued.
 */
export function videoTextProblem(title: string, description: string): string | null {
  if (!title) return 'Please provide a title for the video.';
  if (title.length > VIDEO_TITLE_MAX) return `The title may be at most ${VIDEO_TITLE_MAX} characters.`;
  if (description.length > VIDEO_DESCRIPTION_MAX) return `The description may be at most ${VIDEO_DESCRIPTION_MAX} characters.`;
  return shownTextProblem(title, 'The title', 'one') ?? shownTextProblem(description, 'The description', 'several');
}

/**
 * The owner changes their video's title and description (docs/sync.md, "Mutations"). Anyone else's
 * video is `not_found`, as an unknown one is: the refusal does not tell a stranger the id exists.
 * The texts are trimmed and checked as the upload checks them, refused with `invalid` and the rule's
 * sentence. On the server, the effect then files the video under its new hashtags
 * (server/sync/mutations/effects.ts).
 */
export const editVideo = defineMutation({
  name: 'editVideo',
  args: (k) => k.z.strictObject({ videoId: k.id, title: k.videoText, description: k.videoText }),
  refusedTitle: 'Edit Failed',
  pendingOnCard: true,
  sample: ({ videoId }) => ({ videoId, title: 'Edited #sample', description: 'New words #edited' }),
  run: async (tx, args) => {
    const title = args.title.trim();
    const description = args.description.trim();
    const problem = videoTextProblem(title, description);
    if (problem) throw new MutationError('invalid', problem);
    const video = await tx.videos.get({ id: args.videoId });
    if (!video || video.user_id !== tx.userId) throw new MutationError('not_found', 'This video no longer exists.');
    if ((await tx.videos.update({ id: video.id }, { title, description })) === false) return null;
    return { video, title, description };
  },
});
