import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

// The underscores may arrive percent-encoded (`quire%5Flive%5F…`), which would otherwise slip past.
const KEY_LIKE = /quire(?:_|%5F)live(?:_|%5F)[0-9A-Za-z]+/gi;

/** A key pasted into a URL by mistake is still a secret: it is cut out of the logged URL. */
export function redactUrl(url: string): string {
  return url.replace(KEY_LIKE, 'quire_live_[REDACTED]');
}

/**
 * pino as Fastify configures it, with secrets redacted wherever they could appear: key, cookie and
 * authorization headers, and any field named like a password, key or master key.
 */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        'password',
        'key',
        'masterKey',
        '*.password',
        '*.key',
        '*.masterKey',
        '*.apiKey',
        '*.currentPassword',
        '*.newPassword',
        '*.oneTimePassword',
        '*.csrfToken',
        '*.token',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip ?? request.socket?.remoteAddress,
      }),
    },
  };
}
