import type { OutgoingMail } from './mailer';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** The "confirm your address" mail sent after sign-up and on resend. */
export function verificationMail(opts: { to: string; name: string; link: string }): OutgoingMail {
  const text = [
    `Hi ${opts.name},`,
    '',
    'Welcome to Vidi! Please confirm your email address by opening this link:',
    '',
    opts.link,
    '',
    'The link works once and expires in 24 hours. If you did not sign up for Vidi, ignore this email.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(opts.name)},</p>
<p>Welcome to Vidi! Please confirm your email address:</p>
<p><a href="${escapeHtml(opts.link)}">Confirm my email address</a></p>
<p>The link works once and expires in 24 hours. If you did not sign up for Vidi, ignore this email.</p>`;
  return { to: opts.to, subject: 'Confirm your email address for Vidi', text, html, link: opts.link };
}
