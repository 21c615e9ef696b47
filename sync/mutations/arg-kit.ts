import * as z from 'zod';
import { NameSchema } from '../rest-api/auth';
import { shownText } from '../rest-api/shown-text';
import { MAX_COMMENT_LENGTH, MAX_WATCHED_MS } from './limits';
import { MAX_READ_BATCH, VIDEO_DESCRIPTION_MAX } from '../protocol/limits';
import { IdSchema } from '../protocol/ids';
import { MAX_REPORT_NOTE, REPORT_REASON_CODES, REPORT_TARGET_TYPES } from '../protocol/report-reasons';

/** The pieces mutation schemas are made of; handed to each mutation's `args` when zod is loaded. */
export const argKit = {
  // The builders the mutations use, not the whole namespace: a namespace used as a value keeps all
  // of zod in the client bundle, its ~40 locales too (~300 KB).
  z: { strictObject: z.strictObject },
  id: IdSchema,
  // The same rules as PATCH /api/profile (one schema): a rename cannot slip through sync what the API refuses.
  name: NameSchema,
  commentContent: shownText(
    z.string().trim().min(1, 'A comment cannot be empty.').max(MAX_COMMENT_LENGTH, `A comment can have at most ${MAX_COMMENT_LENGTH} characters.`),
    'A comment',
    'several',
  ),
  watchedMs: z.number().int().min(0).max(MAX_WATCHED_MS),
  notificationIds: z.array(IdSchema).min(1).max(MAX_READ_BATCH),
  // Any short string: the handle rules refuse it with their own words and code (sync/mutations/set-handle.ts).
  handle: z.string().max(100),
  // A video's title or description: any string a form could send; the upload's rules refuse the rest
  // with `invalid` and their own sentence (sync/mutations/edit-video.ts).
  videoText: z.string().max(4 * VIDEO_DESCRIPTION_MAX),
  reportTarget: z.enum(REPORT_TARGET_TYPES),
  reportReason: z.enum(REPORT_REASON_CODES),
  // Shown to admins only, but still text a person reads: the same rule as a comment's.
  reportNote: shownText(z.string().trim().max(MAX_REPORT_NOTE, `A note can have at most ${MAX_REPORT_NOTE} characters.`), 'A note', 'several').optional(),
};

export type ArgKit = typeof argKit;
