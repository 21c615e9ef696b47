// Zod-free: the client shows these in the report dialog, and the server answers GET /api/report-reasons with them.

/** Why a member reports a video, a comment or a member: the codes `report` takes, with the words shown for each. */
export const REPORT_REASONS = [
  { code: 'spam', label: 'Spam or scam' },
  { code: 'nudity', label: 'Nudity or sexual content' },
  { code: 'violence', label: 'Violence or graphic content' },
  { code: 'harassment', label: 'Harassment or bullying' },
  { code: 'hate', label: 'Hate speech or symbols' },
  { code: 'self_harm', label: 'Suicide or self-harm' },
  { code: 'dangerous', label: 'Dangerous acts or challenges' },
  { code: 'misinformation', label: 'False information' },
  { code: 'intellectual_property', label: 'Intellectual property violation' },
  { code: 'other', label: 'Something else' },
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number]['code'];
export const REPORT_REASON_CODES = REPORT_REASONS.map((r) => r.code) as [ReportReason, ...ReportReason[]];

export const REPORT_TARGET_TYPES = ['video', 'comment', 'member'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/** A report's note, at most this many characters. */
export const MAX_REPORT_NOTE = 500;
/** A member's reports in any 24 hours. */
export const MAX_REPORTS_PER_DAY = 15;
