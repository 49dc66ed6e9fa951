// Outgoing e-mail. With KERF_SMTP_URL set, mail goes through that SMTP server; on the embedded
// default without one, each message is written to <data dir>/mail as an .eml file and logged.
import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: Logger }): Mailer {
  const transport: Transporter = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = path.join(options.dataDir, 'mail');
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      if (!options.smtpUrl) {
        fs.mkdirSync(folder, { recursive: true });
        const file = path.join(folder, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '_')}.eml`);
        fs.writeFileSync(file, info.message as Buffer);
        options.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the data directory (no SMTP configured)');
      } else {
        options.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      }
    },
  };
}
