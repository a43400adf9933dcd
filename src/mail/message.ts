import type { Message } from './mailer.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The date a link stops working, as a reader anywhere reads it: in words, with its time zone. */
export function until(iso: string): string {
  return new Date(iso).toUTCString().replace('GMT', 'UTC');
}

/** A message of Quire's: paragraphs of plain text, and the same as HTML around one button-like link. */
export function message(
  to: string,
  subject: string,
  before: string[],
  link: { label: string; url: string },
  after: string[],
) {
  const text = [...before, `${link.label}: ${link.url}`, ...after].join('\n\n');
  const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escape(line)}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328; max-width: 36rem">
${paragraphs(before)}
<p><a href="${escape(link.url)}" style="display: inline-block; padding: 0.6em 1.2em; background: #1f5fbf; color: #fff; border-radius: 6px; text-decoration: none">${escape(link.label)}</a></p>
<p style="font-size: 0.9em; color: #57606a">Or paste this address into your browser: ${escape(link.url)}</p>
${paragraphs(after)}
</body></html>
`;
  return { to, subject, text, html } satisfies Message;
}
