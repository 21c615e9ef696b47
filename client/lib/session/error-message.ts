import { toast } from 'sonner';
import { isErrorAnswer } from '../http/api-error';

/** What to tell the member about a failed auth call: the server's sentence, or that it could not be reached. */
export function authErrorMessage(e: unknown): string {
  return isErrorAnswer(e) ? e.message : 'The server could not be reached. Check your connection and try again.';
}

const PASSWORD_MIN = 6;

/**
 * The sign-up form's checks (docs/accounts.md; the messages are the product's copy), shared by every form that sets a password: shows the
 * toast and returns false when the new password cannot be sent.
 */
export function acceptNewPassword(password: string, confirm: string): boolean {
  if (password !== confirm) toast.error('Password mismatch', { description: 'Passwords do not match' });
  else if (password.length < PASSWORD_MIN) toast.error('Weak password', { description: 'Password must be at least 6 characters long' });
  else return true;
  return false;
}
