import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SunkMail {
  file: string;
  to: string;
  subject: string;
  body: string;
  links: string[];
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (nodemailer uses it for long lines). */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Every .eml the server wrote under DATA_DIR/mail, oldest first. */
export function readMailSink(dataDir: string): SunkMail[] {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = readFileSync(join(dir, f), 'utf8');
      const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      const body = /quoted-printable/i.test(raw) ? decodeQuotedPrintable(rest.join('\n\n')) : rest.join('\n\n');
      const links = [...body.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
      return { file: f, to: header('To'), subject: header('Subject'), body, links };
    });
}

/** The newest mail to `address`, or throws. */
export function lastMailTo(dataDir: string, address: string): SunkMail {
  const mail = readMailSink(dataDir)
    .filter((m) => m.to.toLowerCase().includes(address.toLowerCase()))
    .at(-1);
  if (!mail) throw new Error(`no mail to ${address} in ${dataDir}/mail`);
  return mail;
}
