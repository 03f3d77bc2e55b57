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

/**
 * How use cases send e-mail: through the mail queue (mail-queue.ts). Both methods only queue, in
 * the transaction under way if there is one, so a request never waits for SMTP nor fails with it.
 */
export interface Mailer {
  /** Queues `mail`; a worker sends it, trying again with back-off when the transport fails. */
  send(mail: Mail): Promise<void>;
  /**
   * Queues a mail of `kind` to `to`, written when it is sent by the composer registered for that
   * kind, which may find nothing to send (no account has that address). The request costs the
   * same whatever the address, so neither its answer nor its time tells who has an account. A
   * request of the same kind for the same address still waiting is not queued again.
   */
  request(kind: string, to: string): Promise<void>;
}

/** Delivers one mail now (SMTP, or the outbox directory); throws when it could not. */
export interface MailTransport {
  deliver(mail: Mail): Promise<void>;
}

export interface MailTransportOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}

/**
 * Bounds on one SMTP conversation, well inside the queue's lease (MAIL_LEASE_MS), so a server
 * that stops answering fails the attempt instead of holding the mail past its lease.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * SMTP when `smtpUrl` is set. Otherwise every message is written to the outbox directory as
 * `<time>-<random>.eml` (the raw message) and `<time>-<random>.json` ({ to, subject, text, links,
 * createdAt }), and its links are logged so a developer can follow them.
 */
export function createMailTransport({
  smtpUrl,
  from,
  outboxDir,
  logger,
}: MailTransportOptions): MailTransport {
  if (smtpUrl) {
    const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async deliver(mail) {
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
    async deliver(mail) {
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
      // Written under another name, then renamed: whoever reads the outbox never sees half a file.
      const file = path.join(outboxDir, `${base}.json`);
      await fs.writeFile(`${file}.part`, JSON.stringify(record, null, 2));
      await fs.rename(`${file}.part`, file);
      // Development affordance (no SMTP configured): the link is the only way to verify locally.
      logger.info({ outboxFile: `${base}.json`, links: mail.links }, 'e-mail written to outbox');
    },
  };
}

/** The transport a configuration asks for: SMTP_URL, else the e-mail outbox under DATA_DIR. */
export function mailTransportFor(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: Logger,
): MailTransport {
  return createMailTransport({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger,
  });
}
