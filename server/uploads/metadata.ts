import { z } from 'zod';
import { shownText } from '#sync/rest-api/shown-text';
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX } from '#sync/protocol/limits';

const Metadata = z.object({
  videoId: z.uuid({ message: 'videoId must be a UUID chosen by the client.' }),
  title: shownText(
    z
      .string({ message: 'Please provide a title for the video.' })
      .trim()
      .min(1, { message: 'Please provide a title for the video.' })
      .max(VIDEO_TITLE_MAX, { message: `The title may be at most ${VIDEO_TITLE_MAX} characters.` }),
    'The title',
    'one',
  ),
  description: shownText(
    z
      .string()
      .trim()
      .max(VIDEO_DESCRIPTION_MAX, { message: `The description may be at most ${VIDEO_DESCRIPTION_MAX} characters.` }),
    'The description',
    'several',
  ).default(''),
  filename: z.string().trim().min(1).max(255, { message: 'The file name may be at most 255 characters.' }).default('video'),
  filetype: z
    .string()
    .trim()
    .max(100)
    .refine((t) => t === '' || /^video\/[\w.+-]+$/.test(t), { message: 'Please select a video file.' })
    .default(''),
});

export type UploadMetadata = z.output<typeof Metadata>;

export type MetadataResult = { ok: true; value: UploadMetadata } | { ok: false; code: string; message: string };

/** Validates tus Upload-Metadata (already base64-decoded by tus; a key without value is null). */
export function parseUploadMetadata(raw: Record<string, string | null> | undefined): MetadataResult {
  const cleaned = Object.fromEntries(Object.entries(raw ?? {}).filter(([, v]) => v !== null && v !== undefined));
  if (!cleaned.title || !String(cleaned.title).trim()) return { ok: false, code: 'missing_title', message: 'Please provide a title for the video.' };
  const parsed = Metadata.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'invalid_metadata', message: `${issue?.path.join('.') || 'metadata'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, value: parsed.data };
}
