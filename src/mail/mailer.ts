import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../config.js';

/** One message: its plain-text body, and the same words as HTML for the clients that show it. */
export interface Message {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What became of a message; `reason` says, in words a person can act on, why it was not sent. */
export type Delivery = { sent: true } | { sent: false; reason: string };

/** Where a refused message is reported for the operator: the request's logger, redacting as it does. */
export interface MailLog {
  warn(details: object, message: string): void;
}

export interface Mailer {
  /** False without QUIRE_SMTP_URL: callers show the link instead of mailing it. */
  readonly configured: boolean;
  send(message: Message, log: MailLog): Promise<Delivery>;
}

export const NOT_CONFIGURED = 'This server sends no mail: QUIRE_SMTP_URL is not set.';

/** Each step of a send is bounded, so a mail server that stops answering cannot hold a request for long. */
const TIMEOUT_MS = 10_000;

/**
 * Outgoing mail over SMTP (nodemailer). A send never throws: the refusal of a mail server is the caller's to
 * report (an invitation keeps its link to copy), not a failed request.
 */
export function createMailer(config: MailConfig | null): Mailer {
  if (!config) {
    return {
      configured: false,
      send: async () => ({ sent: false, reason: NOT_CONFIGURED }),
    };
  }
  // nodemailer is loaded at the first message: every `quire` command and server makes a mailer, few send.
  let transport: Promise<Transporter> | undefined;
  const opened = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport(
        {
          url: config.smtpUrl,
          connectionTimeout: TIMEOUT_MS,
          greetingTimeout: TIMEOUT_MS,
          socketTimeout: TIMEOUT_MS,
          // nodemailer logs nothing of its own; the credentials in the URL never reach a log.
          logger: false,
        },
        { from: config.from },
      ),
    ));
  return {
    configured: true,
    async send(message, log) {
      try {
        await (await opened()).sendMail(message);
        return { sent: true };
      } catch (error) {
        log.warn({ err: error, to: message.to, subject: message.subject }, 'the mail server did not take a message');
        return {
          sent: false,
          reason: 'The mail server did not take the message; it has been logged for the operator.',
        };
      }
    },
  };
}
