import nodemailer from 'nodemailer';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the mail is about; printed to the log when mail goes to the file sink. */
  link?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is rendered by nodemailer as a real RFC 822
 * message and written to DATA_DIR/mail/{time}-{id}.eml, so development needs no mail server.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; mailDir: string; log: Logger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      // The messages hold live sign-in and reset links: owner-only, like the database.
      await mkdir(opts.mailDir, { recursive: true, mode: 0o700 });
      const file = join(opts.mailDir, `${Date.now()}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      opts.log.info(`mail to ${mail.to} written to ${file}${mail.link ? `; link: ${mail.link}` : ''}`);
    },
  };
}
