import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { LogLevel } from '../config.js';

/**
 * What is cut out of every logged string, each with a marker that anything it matches contains. Most URLs hold no
 * marker, and one test for all of them costs a fraction of the replacements.
 */
const REDACTIONS: Array<{ marker: string; pattern: RegExp; replace: (match: string, group: string) => string }> = [
  // The underscores may arrive percent-encoded (`quire%5Flive%5F…`), which would otherwise slip past. Content keys
  // and preview and review tokens (which carry dots and base64url) are cut out alike.
  {
    marker: 'quire',
    pattern: /quire(?:_|%5F)(live|content|preview|review)(?:_|%5F)[0-9A-Za-z._~%-]+/gi,
    replace: (_, brand) => `quire_${brand.toLowerCase()}_[REDACTED]`,
  },
  // A webhook signing secret: `whsec_` and base64.
  { marker: 'whsec', pattern: /whsec(?:_|%5F)[0-9A-Za-z+/=%]+/gi, replace: () => 'whsec_[REDACTED]' },
  // A sign-on's answer (docs/team.md, "Single sign-on"): its code and state are a login in flight.
  { marker: 'code=|state=', pattern: /([?&](?:code|state)=)[^&#]*/g, replace: (_, name) => `${name}[REDACTED]` },
];
const MAY_HOLD_SECRET = new RegExp(REDACTIONS.map(({ marker }) => marker).join('|'), 'i');

/** A key (or a webhook secret) pasted into a URL or a message by mistake is still a secret: it is cut out. */
export function redactUrl(url: string): string {
  if (!MAY_HOLD_SECRET.test(url)) return url;
  return REDACTIONS.reduce((text, { pattern, replace }) => text.replace(pattern, replace), url);
}

/**
 * Names whose values are secrets wherever they sit in a logged object, compared lower-cased: the
 * request headers that carry credentials, and password and token fields. Plugins log objects of
 * their own (@fastify/multipart logs its busboy options at trace, the request's headers among them),
 * so fixed redaction paths cannot reach them all.
 */
const SECRET_NAMES = new Set([
  'x-api-key',
  'cookie',
  'set-cookie',
  'authorization',
  'proxy-authorization',
  'x-csrf-token',
  'password',
  'currentpassword',
  'newpassword',
  'onetimepassword',
  'masterkey',
  'key',
  'apikey',
  'csrftoken',
  'token',
  // The SMTP URL carries the mail server's credentials.
  'smtpurl',
  // Webhook signing secrets, and the signature header a delivery's error could carry.
  'secret',
  'webhook-signature',
  // Single sign-on's client secret, and a sign-in's second-factor challenge.
  'clientsecret',
  'challenge',
]);
const CENSOR = '[REDACTED]';
/** Deep enough for any options object a plugin logs; a logged object is never a client's document. */
const MAX_REDACT_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with every secret-named member censored, at any depth. Copies only what it changes: the
 * object logged may be live state (the request's own headers), which must stay as it is.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > MAX_REDACT_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [name, item] of Object.entries(value)) {
    const redacted =
      SECRET_NAMES.has(name.toLowerCase()) && item !== undefined && item !== null
        ? CENSOR
        : redactSecrets(item, depth + 1);
    if (redacted !== item) (copy ??= { ...value })[name] = redacted;
  }
  return (copy ?? value) as T;
}

/** What a request's line says of it: method, URL (keys cut out) and address, never its headers. */
function serializeRequest(request: LoggedRequest): { method: string; url: string; remoteAddress?: string } {
  return {
    method: request.method ?? '',
    url: redactUrl(request.url ?? ''),
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

/**
 * pino as Quire configures it, with secrets redacted wherever they could appear: every logged object is
 * walked for the names above (the request's headers never reach a line: the `req` serializer keeps method,
 * URL and address), and every logged string has keys cut out of it. pino's own path redaction is not used:
 * it did the same for fixed paths at several times the cost of the whole line.
 */
export function loggerOptions(level: LogLevel): pino.LoggerOptions {
  return {
    level,
    // Every log call's object, at every level and from every logger (children included), and its text.
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
    hooks: {
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactUrl(arg) : arg)),
        );
      },
    },
    serializers: {
      req: serializeRequest,
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
  };
}

/** Request lines wait in memory until they fill this many characters, or for FLUSH_MS, and then go out in one write. */
export const BATCH_CHARS = 65_536;
const FLUSH_MS = 1000;

type Destination = pino.DestinationStream & { flush(cb?: (err?: Error) => void): void };

/**
 * The streams holding a batch. At exit they hand it to their destinations first: pino's own exit handler then
 * writes what each destination holds, synchronously, a crash's exit included.
 */
const holding = new Set<LogStream>();
const handOverAll = () => holding.forEach((stream) => stream.handOver());
process.prependListener('exit', handOverAll);
process.prependListener('beforeExit', handOverAll);

/**
 * stdout as the server's logger writes it. A request's line (logRequest) waits for a batch here: a write of its
 * own would cost a request more than making the line. The batch is a plain string held by this stream, not
 * sonic-boom's own buffer, because sonic-boom measures the bytes of everything it holds on each write it is given.
 * Every other line (a warning, an error, the first-start hints) goes out at once, the request lines before it with
 * it, in order.
 */
class LogStream {
  #pending = '';
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: Destination) {}

  write(line: string): void {
    this.handOver();
    this.out.write(line);
  }

  /** Written with the next batch: within FLUSH_MS, or at once when the batch is full. */
  writeBatched(line: string): void {
    if (this.#pending === '') {
      holding.add(this);
      this.#timer = setTimeout(() => this.handOver(), FLUSH_MS).unref();
    }
    this.#pending += line;
    if (this.#pending.length >= BATCH_CHARS) this.handOver();
  }

  /** The batch to the destination, which writes it as soon as its previous write is done. */
  handOver(): void {
    if (this.#pending === '') return;
    clearTimeout(this.#timer);
    holding.delete(this);
    this.out.write(this.#pending);
    this.#pending = '';
  }

  flush(cb?: (err?: Error) => void): void {
    this.handOver();
    this.out.flush(cb);
  }
}

/**
 * The server's logger: stdout (or `dest`, a file) written asynchronously, request lines in batches (LogStream).
 * What is held is written when the process exits, a crash included, so only a SIGKILL loses request lines, those
 * of the last second.
 */
export function createLogger(level: LogLevel, dest: number | string = 1): pino.Logger {
  return pino(loggerOptions(level), new LogStream(pino.destination({ dest, sync: false })));
}

/** Whether a logger writes the line of each request (LOG_LEVEL info and below). */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);
export const logsRequests = (logger: FastifyBaseLogger) => REQUEST_LOG_LEVELS.has(logger.level);

/** What a pino logger keeps of itself: its bindings already as JSON (`,"pid":1,…`) and its stream. */
interface PinoParts {
  [pino.symbols.chindingsSym]?: string;
  [pino.symbols.streamSym]?: { write(line: string): unknown; writeBatched?(line: string): void };
}

interface LoggedRequest {
  method?: string | undefined;
  url?: string | undefined;
  ip?: string;
  socket?: { remoteAddress?: string };
}

/**
 * The one line each request is logged with, when its answer has been sent: request id, method, URL and
 * address, status and time. Fastify's own two lines a request (on arrival and at the answer) are off; the fast
 * path of cached answers (cached-get.ts) writes this same line, naming its request id as `reqId` (Fastify's
 * request loggers carry it among their bindings).
 *
 * It is the line pino would write for `logger.info({ req, res, responseTime }, 'request completed')`, byte for
 * byte (logging.test.ts compares them), made directly: it has four known fields, and pino's general path
 * (serializers, the redaction walk, the hooks) cost several times the line. Any other logger gets that call.
 */
export function logRequest(
  logger: FastifyBaseLogger,
  request: LoggedRequest,
  statusCode: number,
  responseTime: number,
  reqId?: string,
): void {
  const parts = logger as unknown as PinoParts;
  const bindings = parts[pino.symbols.chindingsSym];
  const stream = parts[pino.symbols.streamSym];
  if (bindings === undefined || stream === undefined) {
    (reqId === undefined ? logger : logger.child({ reqId })).info(
      { req: request, res: { statusCode }, responseTime },
      'request completed',
    );
    return;
  }
  const id = reqId === undefined ? '' : `,"reqId":${JSON.stringify(reqId)}`;
  const req = serializeRequest(request);
  const address = req.remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(req.remoteAddress)}`;
  const line =
    `{"level":30,"time":${Date.now()}${bindings}${id},"req":{"method":${JSON.stringify(req.method)},` +
    `"url":${JSON.stringify(req.url)}${address}},"res":{"statusCode":${statusCode}},` +
    `"responseTime":${responseTime},"msg":"request completed"}\n`;
  if (stream.writeBatched) stream.writeBatched(line);
  else stream.write(line);
}

/** The Fastify hook that logs each request's line. */
export async function requestLogHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (logsRequests(request.log)) logRequest(request.log, request, reply.statusCode, reply.elapsedTime);
}
