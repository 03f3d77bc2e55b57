import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from './config';
import type { Logger } from './logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links in the message by purpose (e.g. `verification`), recorded in the outbox for tests. */
  links: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}

/**
 * SMTP when `smtpUrl` is set. Otherwise every message is written to the outbox directory as
 * `<time>-<random>.eml` (the raw message) and `<time>-<random>.json` ({ to, subject, text, links,
 * createdAt }), and its links are logged so a developer can follow them.
 */
export function createMailer({ smtpUrl, from, outboxDir, logger }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        logger.info({ subject: mail.subject }, 'e-mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      const createdAt = new Date();
      const base = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      await fs.mkdir(outboxDir, { recursive: true });
      await fs.writeFile(path.join(outboxDir, `${base}.eml`), info.message as Buffer);
      const record = {
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        links: mail.links,
        createdAt,
      };
      await fs.writeFile(path.join(outboxDir, `${base}.json`), JSON.stringify(record, null, 2));
      // Development affordance (no SMTP configured): the link is the only way to verify locally.
      logger.info({ outboxFile: `${base}.json`, links: mail.links }, 'e-mail written to outbox');
    },
  };
}

/** The mailer a configuration asks for: SMTP_URL, else the e-mail outbox under DATA_DIR. */
export function mailerFor(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: Logger,
): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger,
  });
}
