import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { badRequest } from '../../../../errors.js';
import type { ImportRedirect, SourceNote } from '../../import-source.js';
import { storable } from './ghost-text.js';

/*
 * Ghost's redirects file, `redirects.json` (`[{from, to, permanent}]`) or `redirects.yaml` (`301: {from: to}`).
 * Ghost reads every `from` as a regular expression; Quire redirects exact paths. A `from` that is a path once its
 * anchors and escaped slashes are read (`^\/old\/$`) is kept; a pattern (a group, a wildcard, an alternative)
 * matches paths no list can name, so it is skipped and said so.
 */

export interface GhostRedirects {
  redirects: ImportRedirect[];
  notes: SourceNote[];
}

interface Rule {
  from: string;
  to: string;
  permanent: boolean;
}

/** The exact path a `from` matches, or null when it is a pattern. */
export function exactPath(from: string): string | null {
  let path = from.trim();
  if (path.startsWith('^')) path = path.slice(1);
  if (path.endsWith('$') && !path.endsWith('\\$')) path = path.slice(0, -1);
  // `/?` at the end (an optional trailing slash) is the one pattern nearly every redirects file has.
  if (path.endsWith('/?')) path = path.slice(0, -1);
  path = path.replace(/\\([/.\-_~])/g, '$1');
  if (/[\\()[\]{}*+?|^$]/.test(path) || !path.startsWith('/')) return null;
  return path;
}

function rulesOf(document: unknown): Rule[] | null {
  if (Array.isArray(document)) {
    const rules: Rule[] = [];
    for (const item of document) {
      if (typeof item !== 'object' || item === null) return null;
      const { from, to, permanent } = item as Record<string, unknown>;
      if (typeof from !== 'string' || typeof to !== 'string') return null;
      rules.push({ from, to, permanent: permanent === true });
    }
    return rules;
  }
  if (typeof document === 'object' && document !== null) {
    const rules: Rule[] = [];
    for (const [status, map] of Object.entries(document)) {
      if (status !== '301' && status !== '302') return null;
      if (map === null) continue;
      if (typeof map !== 'object' || Array.isArray(map)) return null;
      for (const [from, to] of Object.entries(map as Record<string, unknown>)) {
        if (typeof to !== 'string') return null;
        rules.push({ from, to, permanent: status === '301' });
      }
    }
    return rules;
  }
  return null;
}

export async function readRedirects(file: string): Promise<GhostRedirects> {
  const name = basename(file);
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    throw badRequest(`${name} cannot be read: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    const yaml = ['.yaml', '.yml'].includes(extname(file).toLowerCase());
    document = yaml ? parseYaml(source) : JSON.parse(source);
  } catch (error) {
    throw badRequest(`${name} is not a Ghost redirects file: ${(error as Error).message}`);
  }
  const rules = rulesOf(document);
  if (rules === null)
    throw badRequest(`${name} is not a Ghost redirects file: expected [{from, to, permanent}] or {301: {from: to}}`);
  const redirects: ImportRedirect[] = [];
  const notes: SourceNote[] = [];
  for (const rule of rules) {
    const fromPath = exactPath(rule.from);
    if (fromPath === null) {
      notes.push({ message: `redirect from the pattern ${rule.from} skipped: Quire redirects exact paths` });
      continue;
    }
    redirects.push({
      type: 'redirect',
      sourceId: storable(rule.from),
      fromPath: storable(fromPath),
      toPath: storable(rule.to.trim()),
      statusCode: rule.permanent ? 301 : 302,
    });
  }
  return { redirects, notes };
}
