import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the test mail server took, as a reader's client shows it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface MailServer {
  /** `smtp://user:pass@127.0.0.1:port`: what QUIRE_SMTP_URL is set to. */
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message to `to` taken after `since` messages, or fails after `timeoutMs`. */
  next(to: string, since?: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuse every message from now on (a mail server that is away or turns the sender down). */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

export const SMTP_USER = 'quire';
export const SMTP_PASSWORD = 'smtp-secret-for-tests';

/**
 * A real SMTP server (the smtp-server package) on a loopback port, with authentication, that keeps every message
 * it accepts, parsed by mailparser. Plain text on loopback: no TLS to set up for a test.
 */
export async function startMailServer(): Promise<MailServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    messages,
    next(to, since = 0, timeoutMs = 10_000) {
      const find = () => messages.slice(since).find((message) => message.to.includes(to));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find();
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (${messages.length} taken)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    refuse(on) {
      refusing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link of a Quire mail: the address after the token's `#`, as a reader would click it. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+#[A-Za-z0-9_-]{43}/.exec(mail.text);
  if (!match) throw new Error(`no link in the mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}
