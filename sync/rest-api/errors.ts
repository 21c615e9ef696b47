import * as z from 'zod';

/** The one error shape of the API: {"error": {"code", "message"}}. */
export const ErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});
export type ApiErrorBody = z.infer<typeof ErrorSchema>;
