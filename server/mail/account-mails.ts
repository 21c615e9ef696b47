import type { OutgoingMail } from './mailer';
import { escapeHtml } from './verification-mail';

/** "Someone tried to sign up with your address": sent instead of revealing to the caller that the address is taken. */
export function signupAttemptMail(opts: { to: string; name: string; loginLink: string; resetLink: string }): OutgoingMail {
  const text = [
    `Hi ${opts.name},`,
    '',
    'Someone just tried to create a Vidi account with this email address. You already have one, so nothing was changed.',
    '',
    `If it was you, sign in here: ${opts.loginLink}`,
    `Forgot your password? Reset it here: ${opts.resetLink}`,
    '',
    'If it was not you, you can ignore this email. Your account is safe.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(opts.name)},</p>
<p>Someone just tried to create a Vidi account with this email address. You already have one, so nothing was changed.</p>
<p>If it was you, <a href="${escapeHtml(opts.loginLink)}">sign in</a>. Forgot your password? <a href="${escapeHtml(opts.resetLink)}">Reset it</a>.</p>
<p>If it was not you, you can ignore this email. Your account is safe.</p>`;
  return { to: opts.to, subject: 'Someone tried to sign up to Vidi with your email', text, html, link: opts.loginLink };
}

/** The password reset link (forgot password). */
export function passwordResetMail(opts: { to: string; name: string; link: string }): OutgoingMail {
  const text = [
    `Hi ${opts.name},`,
    '',
    'Someone asked to reset the password of your Vidi account. To choose a new password, open this link:',
    '',
    opts.link,
    '',
    'The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays the same.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(opts.name)},</p>
<p>Someone asked to reset the password of your Vidi account.</p>
<p><a href="${escapeHtml(opts.link)}">Choose a new password</a></p>
<p>The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays the same.</p>`;
  return { to: opts.to, subject: 'Reset your Vidi password', text, html, link: opts.link };
}
