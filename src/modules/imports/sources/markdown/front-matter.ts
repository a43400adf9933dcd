import { parse as parseToml, TomlError } from 'smol-toml';
import { parseDocument } from 'yaml';

/*
 * Front matter as the static site generators write it at the top of a file: YAML between `---` lines (Jekyll,
 * Hugo, Eleventy, Astro), TOML between `+++` lines (Hugo), or a JSON object (Hugo). Each is read by its own
 * parser: YAML with the yaml package's default (core) schema, so a custom tag (`!ruby/object`) builds nothing.
 */

export type FrontMatter = Record<string, unknown>;

export interface SplitFile {
  data: FrontMatter;
  body: string;
}

/** Front matter that does not parse: the message names the file's line. */
export class FrontMatterError extends Error {
  constructor(
    readonly line: number | undefined,
    message: string,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

const isRecord = (value: unknown): value is FrontMatter =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The index of the line that closes a delimited block: the first after the opening one that is `fence` alone. */
function closingLine(lines: readonly string[], fence: string): number {
  for (let i = 1; i < lines.length; i += 1) if (lines[i]!.trimEnd() === fence) return i;
  return -1;
}

function yaml(source: string, firstLine: number): FrontMatter {
  const document = parseDocument(source, { uniqueKeys: false });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0].line;
    // The parser's own position counts from the front matter's first line; the file's line replaces it.
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new FrontMatterError(line === undefined ? undefined : firstLine + line - 1, message);
  }
  let data: unknown;
  try {
    // Aliases are expanded up to a bound, so a small file cannot grow into a large object.
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new FrontMatterError(firstLine, (error as Error).message);
  }
  if (data === null || data === undefined) return {};
  if (!isRecord(data)) throw new FrontMatterError(firstLine, 'the YAML front matter is not a map of keys');
  return data;
}

function toml(source: string, firstLine: number): FrontMatter {
  try {
    return parseToml(source) as FrontMatter;
  } catch (error) {
    if (error instanceof TomlError)
      throw new FrontMatterError(firstLine + error.line - 1, error.message.split('\n')[0]!);
    throw error;
  }
}

/** Where the JSON object that opens the text ends (after its `}`), strings and escapes read; -1 if it does not. */
function jsonEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

function json(text: string): SplitFile {
  const end = jsonEnd(text);
  if (end < 0) throw new FrontMatterError(1, 'the JSON front matter has no closing }');
  let data: unknown;
  try {
    data = JSON.parse(text.slice(0, end));
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    throw new FrontMatterError(
      position === null ? undefined : lineAt(text, Number(position[1])),
      (error as Error).message.replace(/ in JSON at position \d+.*$/, ''),
    );
  }
  if (!isRecord(data)) throw new FrontMatterError(1, 'the JSON front matter is not an object');
  const rest = text.slice(end);
  const newline = rest.indexOf('\n');
  return { data, body: newline < 0 ? '' : rest.slice(newline + 1) };
}

/** The front matter and the body of a Markdown file (line endings already `\n`); no front matter is `{}`. */
export function splitFrontMatter(text: string): SplitFile {
  if (text.startsWith('{')) return json(text);
  const lines = text.split('\n');
  const fence = lines[0]!.trimEnd();
  if (fence !== '---' && fence !== '+++') return { data: {}, body: text };
  const close = closingLine(lines, fence);
  if (close < 0) throw new FrontMatterError(1, `the front matter opened by ${fence} is never closed`);
  const source = lines.slice(1, close).join('\n');
  const data = fence === '---' ? yaml(source, 2) : toml(source, 2);
  return { data, body: lines.slice(close + 1).join('\n') };
}
