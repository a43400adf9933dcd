import type { ValidationIssue } from '../../errors.js';

/**
 * An allowed origin as a browser names itself in `Origin`: an http(s) scheme and host, a port only when it is not
 * the scheme's default, nothing else. Kept in that normal form, so a request's Origin is compared as a string.
 */
export function normalOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    return null;
  if (
    value.trim().replace(/\/$/, '') !==
    value
      .trim()
      .replace(/\/$/, '')
      .replace(/[?#].*$/, '')
  )
    return null;
  return url.origin;
}

/** The origins of a body in normal form, or the issues that refuse it, each at its index. */
export function parseOrigins(values: readonly string[]): { origins: string[]; issues: ValidationIssue[] } {
  const origins: string[] = [];
  const issues: ValidationIssue[] = [];
  values.forEach((value, index) => {
    const origin = normalOrigin(value);
    if (origin === null)
      issues.push({
        in: 'body',
        path: `/allowedOrigins/${index}`,
        message: 'An origin is an http or https scheme and host, with a port when needed, such as https://example.com',
      });
    else if (!origins.includes(origin)) origins.push(origin);
  });
  return { origins, issues };
}
