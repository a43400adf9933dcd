import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from '../errors.js';

/*
 * PostgreSQL text cannot hold U+0000 and SQLite would store it: refused here, alike on both dialects,
 * as the client's mistake (400) rather than a database error (500).
 */

function findNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findNul(value[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found =
        findNul(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`) ?? (key.includes('\0') ? path : null);
      if (found !== null) return found;
    }
  }
  return null;
}

/** For a parsed JSON body: the raw text names every NUL as the escape `\u0000`, so most bodies skip the walk. */
export function refuseNulInBody(raw: string, parsed: unknown): void {
  if (!raw.includes('\\u0000')) return;
  const path = findNul(parsed, '');
  if (path !== null)
    throw new AppError('BAD_REQUEST', 'Text may not contain the NUL character (U+0000)', {
      reason: 'nul_character',
      issues: [{ in: 'body', path, message: 'contains U+0000' }],
    });
}

/** A preValidation hook: query strings and path parameters. */
export async function refuseNulInUrl(request: FastifyRequest): Promise<void> {
  for (const [part, value] of [
    ['query', request.query],
    ['params', request.params],
  ] as const) {
    const path = findNul(value, '');
    if (path !== null) throw invalid([{ in: part, path, message: 'contains U+0000' }]);
  }
}
