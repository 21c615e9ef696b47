import * as z from 'zod';
import { MAX_REPORT_NOTE, REPORT_TARGET_TYPES } from '../protocol/report-reasons';
import { IdSchema } from '../protocol/ids';

// Reports and the moderation queue (docs/moderation.md): GET /api/report-reasons for members, and
// the /api/admin/reports bodies and answers, shared by the server (validation, OpenAPI) and the admin screens.

/** GET /api/report-reasons: the codes `report` takes, with the words the report dialog shows. */
export const ReportReasonsAnswer = z.array(z.object({ code: z.string(), label: z.string() })).meta({ id: 'ReportReasons' });
export type ReportReasonsAnswer = z.infer<typeof ReportReasonsAnswer>;

const Person = z.object({ id: z.string(), name: z.string(), handle: z.string().nullable() });

/** What was reported as it was at the first open report of it: kept through its deletion. */
export const ReportSnapshot = z
  .union([
    z.object({ title: z.string(), description: z.string(), uploader: Person, poster_url: z.string().nullable() }),
    z.object({ text: z.string(), author: Person, video_id: z.string(), video_title: z.string().nullable() }),
    Person,
  ])
  .meta({ id: 'ReportSnapshot' });
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

export const REPORT_STATES = ['open', 'actioned', 'dismissed'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** Whether the target is still there: `removed` when it was deleted, `suspended` for a suspended member. */
export const TARGET_STATES = ['exists', 'removed', 'suspended'] as const;

export const ReportQueueItem = z
  .object({
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: z.string(),
    state: z.enum(REPORT_STATES),
    reports_count: z.number().int(),
    /** How many of its reports gave each reason, most given first. */
    reasons: z.array(z.object({ code: z.string(), count: z.number().int() })),
    /** The reporters' notes (never who wrote them), oldest first. */
    notes: z.array(z.object({ code: z.string(), note: z.string() })),
    snapshot: ReportSnapshot,
    target_state: z.enum(TARGET_STATES),
    first_reported_at: z.number().int(),
    last_reported_at: z.number().int(),
    resolved_at: z.number().int().nullable(),
    resolution_note: z.string().nullable(),
  })
  .meta({ id: 'ReportQueueItem' });
export type ReportQueueItem = z.infer<typeof ReportQueueItem>;

/** A page of the queue: open targets oldest first, resolved ones newest first; next_cursor is null on the last page. */
export const ReportQueuePage = z.object({ items: z.array(ReportQueueItem), next_cursor: z.string().nullable() }).meta({ id: 'ReportQueuePage' });
export type ReportQueuePage = z.infer<typeof ReportQueuePage>;

export const REPORT_ACTIONS = ['dismiss', 'remove', 'suspend'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** POST /api/admin/reports/resolve: every open report of the target at once. */
export const ResolveReportsBody = z
  .strictObject({
    targetType: z.enum(REPORT_TARGET_TYPES),
    targetId: IdSchema,
    action: z.enum(REPORT_ACTIONS),
    note: z.string().trim().max(MAX_REPORT_NOTE, `A note can have at most ${MAX_REPORT_NOTE} characters.`).optional(),
  })
  .meta({ id: 'ResolveReportsBody' });
export type ResolveReportsBody = z.infer<typeof ResolveReportsBody>;

export const ResolveReportsAnswer = z
  .object({ state: z.enum(['actioned', 'dismissed']), reports_resolved: z.number().int() })
  .meta({ id: 'ResolveReportsAnswer' });
export type ResolveReportsAnswer = z.infer<typeof ResolveReportsAnswer>;
