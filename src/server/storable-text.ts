import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from '../errors.js';
import { findInJson } from '../shared/json.js';

/*
 * Text that the two databases would not store alike is refused here, as the client's mistake (400)
 * rather than a database error (500), on both dialects:
 * - U+0000: PostgreSQL text cannot hold it and SQLite would store it.
 * - A lone UTF-16 surrogate (`"\ud800"` in JSON): PostgreSQL's jsonb refuses its escape and the text
 *   columns of both databases would silently store U+FFFD in its place, so what a client reads back
 *   would not be what it wrote.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Problem = 'nul_character' | 'lone_surrogate';

const PROBLEMS: Record<Problem, { message: string; issue: string }> = {
  nul_character: { message: 'Text may not contain the NUL character (U+0000)', issue: 'contains U+0000' },
  lone_surrogate: {
    message: 'Text may not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape)',
    issue: 'contains a lone UTF-16 surrogate',
  },
};

function problemOf(text: string): Problem | null {
  if (text.includes('\0')) return 'nul_character';
  return LONE_SURROGATE.test(text) ? 'lone_surrogate' : null;
}

/** The first string, or member name, that cannot be stored alike; a bad member name points at its object. */
function findUnstorable(value: unknown): { path: string; problem: Problem } | null {
  let problem: Problem | null = null;
  let parentPath = '';
  const found = findInJson(value, (visit) => {
    if (visit.key !== undefined) {
      problem = problemOf(visit.key);
      if (problem !== null) {
        parentPath = visit.path.slice(0, visit.path.lastIndexOf('/'));
        return true;
      }
    }
    problem = typeof visit.value === 'string' ? problemOf(visit.value) : null;
    parentPath = visit.path;
    return problem !== null;
  });
  return found === null || problem === null ? null : { path: parentPath, problem };
}

/**
 * For a parsed JSON body. Both kinds of character can only arrive in JSON as escapes (raw bytes that
 * are not UTF-8 are read as U+FFFD), so a body whose text holds neither escape skips the walk.
 */
export function refuseUnstorableTextInBody(raw: string, parsed: unknown): void {
  if (!raw.includes('\\u0000') && !/\\u[dD][89a-fA-F]/.test(raw)) return;
  const found = findUnstorable(parsed);
  if (found === null) return;
  const { message, issue } = PROBLEMS[found.problem];
  throw new AppError('BAD_REQUEST', message, {
    reason: found.problem,
    issues: [{ in: 'body', path: found.path, message: issue }],
  });
}

/** A preValidation hook: query strings and path parameters. */
export async function refuseUnstorableTextInUrl(request: FastifyRequest): Promise<void> {
  for (const [part, value] of [
    ['query', request.query],
    ['params', request.params],
  ] as const) {
    const found = findUnstorable(value);
    if (found !== null) throw invalid([{ in: part, path: found.path, message: PROBLEMS[found.problem].issue }]);
  }
}
