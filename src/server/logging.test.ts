import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BATCH_CHARS, createLogger, loggerOptions, logRequest, redactUrl } from './logging.js';

/** A pino logger as the server makes it, writing into an array of lines. */
function capturing(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), sink), lines };
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

const REQUESTS = [
  { method: 'GET', url: '/api/v1/posts?page=2', ip: '127.0.0.1' },
  {
    method: 'POST',
    url: '/api/v1/posts/"quoted"\\back/ünï/😀?apiKey=quire_live_abcDEF123',
    socket: { remoteAddress: '::1' },
  },
  { method: 'DELETE', url: '/x%5Fy?secret=whsec_abc%2B', socket: {} },
];

describe("a request's line", () => {
  it('is, byte for byte, the line pino writes for the same call, a key in the URL redacted', async () => {
    for (const request of REQUESTS) {
      const made = capturing();
      const child = made.logger.child({ reqId: 'req-1' });
      logRequest(child, request, 201, 1.25);
      logRequest(made.logger, request, 404, 0.5, 'req-"2"');

      const byPino = capturing();
      byPino.logger
        .child({ reqId: 'req-1' })
        .info({ req: request, res: { statusCode: 201 }, responseTime: 1.25 }, 'request completed');
      byPino.logger
        .child({ reqId: 'req-"2"' })
        .info({ req: request, res: { statusCode: 404 }, responseTime: 0.5 }, 'request completed');
      await new Promise((resolve) => setImmediate(resolve));

      expect(made.lines.map(withoutTime)).toEqual(byPino.lines.map(withoutTime));
      expect(made.lines).toHaveLength(2);
      for (const line of made.lines) expect(line).not.toMatch(/abcDEF123|whsec_abc/);
    }
  });

  it('goes through the logger as a call when it is not one of pino’s', () => {
    const calls: unknown[][] = [];
    const logger = {
      level: 'info',
      info: (...args: unknown[]) => calls.push(args),
      child: () => logger,
    } as unknown as pino.Logger;
    logRequest(logger, REQUESTS[0]!, 200, 2, 'req-3');
    expect(calls).toEqual([[{ req: REQUESTS[0], res: { statusCode: 200 }, responseTime: 2 }, 'request completed']]);
  });
});

describe('a URL in a line', () => {
  const SECRET = 'S3cretT0ken';
  const FORMS = [
    `quire_live_${SECRET}`,
    `QUIRE%5Fcontent%5F${SECRET}`,
    `quire_preview_x.${SECRET}`,
    `whsec_${SECRET}`,
    `WHSEC%5F${SECRET}`,
    `?code=${SECRET}`,
    `&state=${SECRET}`,
  ];

  it('loses every key, secret and sign-on code wherever it sits', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...FORMS), fc.string(), (before, secret, after) => {
        expect(redactUrl(before + secret + after)).not.toContain(SECRET);
      }),
    );
  });
});

describe("the server's logger", () => {
  it('holds request lines for a batch, and writes any other line at once with the lines before it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-log-'));
    const file = path.join(dir, 'out.log');
    const logger = createLogger('info', file);
    const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
    const settled = () => new Promise((resolve) => setTimeout(resolve, 100));
    try {
      await settled(); // the file open
      for (let n = 0; n < 3; n += 1) logRequest(logger, REQUESTS[0]!, 200, 1, `req-${n}`);
      await settled();
      expect(read()).toEqual([]);

      logger.warn('disk nearly full');
      await settled();
      expect(read().map((line) => JSON.parse(line).reqId ?? JSON.parse(line).msg)).toEqual([
        'req-0',
        'req-1',
        'req-2',
        'disk nearly full',
      ]);

      // A lone request line waits at most a second.
      logRequest(logger, REQUESTS[0]!, 200, 1, 'req-3');
      await settled();
      expect(read()).toHaveLength(4);
      await expect.poll(read, { timeout: 3_000 }).toHaveLength(5);

      // A full batch goes out without waiting for the second; what follows it waits for the next.
      const lineLength = read()[4]!.length + 1;
      const batch = Math.ceil(BATCH_CHARS / lineLength);
      for (let n = 0; n < batch + 2; n += 1) logRequest(logger, REQUESTS[0]!, 200, 1, `req-${n}`);
      await settled();
      const written = read().length - 5;
      expect(written).toBeGreaterThan(batch / 2);
      expect(written).toBeLessThan(batch + 2);
    } finally {
      logger.flush();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
