import * as z from 'zod';
import { hasHiddenFormatting, NO_CONTROL_CHARS } from './shown-text';

// Request and response shapes of the accounts API, shared by the server (validation, OpenAPI) and
// the client (forms, parsing). The server validates with exactly these, so the rules cannot drift.

export const NAME_MAX = 80;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const NameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters long`)
  .regex(NO_CONTROL_CHARS, 'Name must not contain control characters')
  // A name is shown on cards and comments and is the title of a push (sync/rest-api/shown-text.ts).
  .refine((name) => !hasHiddenFormatting(name), 'Name must not contain invisible formatting characters');

/** Trimmed and lower-cased before it is checked, so `  Ann@Example.COM ` and `ann@example.com` are one account. */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters long`)
  .check(z.email({ message: 'Enter a valid email address' }));

export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN, 'Password must be at least 6 characters long')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`);

/** Login only needs something to compare: the length rules are not repeated (a shorter input just fails). */
const LoginPasswordSchema = z.string().min(1, 'Password is required').max(1024, 'Password is too long');

export const SignupBody = z.strictObject({ name: NameSchema, email: EmailSchema, password: PasswordSchema });
export type SignupBody = z.infer<typeof SignupBody>;

export const LoginBody = z.strictObject({ email: EmailSchema, password: LoginPasswordSchema });
export type LoginBody = z.infer<typeof LoginBody>;

/** The refresh token may come in the body or, in the browser, in the HttpOnly cookie instead. Tokens are base64url. */
export const RefreshTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'refresh_token is malformed');
export const RefreshBody = z.strictObject({ refresh_token: RefreshTokenSchema.optional() });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LogoutBody = RefreshBody;
export type LogoutBody = RefreshBody;

export const ResendBody = z.strictObject({ email: EmailSchema });
export type ResendBody = z.infer<typeof ResendBody>;

export const ForgotPasswordBody = z.strictObject({ email: EmailSchema });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/** The token of the mailed reset link (32 random bytes, base64url). */
export const ResetPasswordBody = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'This reset link is invalid. Ask for a new one.'),
  password: PasswordSchema,
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const ChangePasswordBody = z.strictObject({ current_password: LoginPasswordSchema, new_password: PasswordSchema });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** The answer of forgot, reset and change: a sentence the client may show. */
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const ProfileUpdateBody = z.strictObject({ name: NameSchema });
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

export const AccountStatus = z.enum(['active', 'pending_payment']);
export type AccountStatus = z.infer<typeof AccountStatus>;

/** The signed-in user as the API shows it to themself (login, refresh, GET /api/profile). */
export const PublicUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  is_admin: z.boolean(),
  is_active: z.boolean(),
  account_status: AccountStatus,
  /** Milliseconds since the epoch. */
  created_at: z.number().int(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const AuthSession = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** Seconds the access token stays valid. */
  expires_in: z.number().int(),
  /** Unix time (seconds) the access token expires at. */
  expires_at: z.number().int(),
  token_type: z.literal('bearer'),
  user: PublicUser,
});
export type AuthSession = z.infer<typeof AuthSession>;

export const SignupResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), account_status: AccountStatus }),
  verification_sent: z.boolean(),
});
export type SignupResponse = z.infer<typeof SignupResponse>;

export const ResendResponse = z.object({ message: z.string() });
export type ResendResponse = z.infer<typeof ResendResponse>;

/** 403 on login of an account that still owes the entry fee: the client resumes payment with user_id. */
export const PaymentRequiredError = z.object({
  error: z.object({ code: z.literal('payment_required'), message: z.string() }),
  user_id: z.string(),
});
export type PaymentRequiredError = z.infer<typeof PaymentRequiredError>;

/** Error codes of the accounts API the client may branch on. */
export const AuthErrorCode = {
  invalidCredentials: 'invalid_credentials',
  emailNotVerified: 'email_not_verified',
  accountSuspended: 'account_suspended',
  paymentRequired: 'payment_required',
  tokenReused: 'token_reused',
  invalidRefreshToken: 'invalid_refresh_token',
  rateLimited: 'rate_limited',
  invalidResetToken: 'invalid_reset_token',
  wrongPassword: 'wrong_password',
  busy: 'busy',
} as const;
