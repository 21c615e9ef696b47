/**
 * The mailed reset link's token (docs/pwa.md, "Secrets in the address"). A token in the address bar
 * is readable by every script on the page and travels in each request's Referer, so the app's first
 * module takes it out of the address (`history.replaceState`) and keeps it in this tab's
 * sessionStorage, for the reset form and a reload of it; any other page forgets it at start.
 */
export const RESET_PATH = '/reset-password';
const KEY = 'vidi.resetToken';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Runs before anything else of the app: moves `?token=` of the reset link out of the address. */
export function moveResetTokenOutOfAddress(loc: Location = location, hist: History = history): void {
  if (loc.pathname !== RESET_PATH) {
    forgetResetToken();
    return;
  }
  const params = new URLSearchParams(loc.search);
  const token = params.get('token');
  if (token === null) return;
  storage()?.setItem(KEY, token);
  params.delete('token');
  const rest = params.toString();
  hist.replaceState(hist.state, '', `${RESET_PATH}${rest ? `?${rest}` : ''}${loc.hash}`);
}

export function resetToken(): string | null {
  return storage()?.getItem(KEY) ?? null;
}

export function forgetResetToken(): void {
  storage()?.removeItem(KEY);
}
