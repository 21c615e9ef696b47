// Zod-free: the client checks a handle as it is typed, and the migration derives the first ones.

/** A handle: 3 to 30 of a-z 0-9 _ . starting with a letter (kept lower case: unique whatever the case typed). */
export const HANDLE_PATTERN = /^[a-z][a-z0-9_.]{2,29}$/;
export const HANDLE_MIN = 3;
export const HANDLE_MAX = 30;

/**
 * Handles that would read as the app's own pages or staff: the app's route names (client/app/router.tsx)
 * and the words a member could pass off as Vidi speaking.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'api',
  'app',
  'assets',
  'auth',
  'files',
  'feed',
  'following',
  'forgot_password',
  'help',
  'home',
  'login',
  'logout',
  'media',
  'moderator',
  'notifications',
  'payment',
  'people',
  'profile',
  'reset_password',
  'rewards',
  'search',
  'settings',
  'signup',
  'suggested',
  'staff',
  'support',
  'tag',
  'upload',
  'vidi',
]);

/** The words of the `handle_taken` refusal; the /profile form says the same before sending. */
export const HANDLE_TAKEN_MESSAGE = 'That handle is taken.';

/** What a member typed, as it is stored and compared: trimmed, without a leading @, lower case. */
export function normalizeHandle(typed: string): string {
  return typed.trim().replace(/^@/, '').toLowerCase();
}

/** Why a (normalized) handle cannot be used, in the form's words; null when it can. */
export function handleProblem(handle: string): string | null {
  if (handle.length < HANDLE_MIN || handle.length > HANDLE_MAX) return `A handle is ${HANDLE_MIN} to ${HANDLE_MAX} characters.`;
  if (!/^[a-z]/.test(handle)) return 'A handle starts with a letter.';
  if (!HANDLE_PATTERN.test(handle)) return 'A handle uses only letters, digits, _ and .';
  if (RESERVED_HANDLES.has(handle)) return 'That handle is reserved.';
  return null;
}

/**
 * A first handle from a member's name ("Asha Rao" → "asha_rao"): the caller adds digits while it is
 * taken. Always valid on its own, with room left for those digits.
 */
export function handleFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, HANDLE_MAX - 6);
  const padded = base.length >= HANDLE_MIN ? base : `${base || 'member'}_vid`.slice(0, HANDLE_MAX - 6);
  return RESERVED_HANDLES.has(padded) ? `${padded}_1` : padded;
}

/** The n-th candidate for a name whose handle is taken: base, base2, base3... (within 30 characters). */
export function numberedHandle(base: string, n: number): string {
  return n <= 1 ? base : `${base.slice(0, HANDLE_MAX - String(n).length)}${n}`;
}
