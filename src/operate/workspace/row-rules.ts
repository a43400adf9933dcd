import { isDeepStrictEqual } from 'node:util';
import { Type, type TObject } from 'typebox';
import type { BlockWrite } from '@quire/blocks';
import { deriveBody } from '../../blocks/derive.js';
import { AppError, type ValidationIssue } from '../../errors.js';
import { toIssue, validatorCompiler, type Validator } from '../../http/validation.js';
import { AuthorCreateBody } from '../../modules/authors/authors.schemas.js';
import { CategoryCreateBody } from '../../modules/categories/categories.schemas.js';
import { SiteSettingsPatch } from '../../modules/workspaces/site-settings.patch.js';
import { LinkHealth, LinkHealthReportBody } from '../../modules/link-health/link-health.schemas.js';
import { MediaUpdateBody } from '../../modules/media/media.schemas.js';
import { ACCEPTED_TYPES } from '../../modules/media/media.sniff.js';
import { PageCreateBody, PageUpdateBody } from '../../modules/pages/pages.schemas.js';
import { checkStatusMove } from '../../modules/posts/posts.rules.js';
import { Post, PostCreateBody, PostUpdateBody } from '../../modules/posts/posts.schemas.js';
import { RedirectCreateBody } from '../../modules/redirects/redirects.schemas.js';
import { TagCreateBody } from '../../modules/tags/tags.schemas.js';
import { settingsIssues } from '../../modules/workspaces/site-settings.service.js';
import { normalizePath, normalizeTarget } from '../../shared/url-path.js';
import { SETTINGS_TABLE, type ArchivedTable } from './tables.js';

type Row = Record<string, unknown>;

/**
 * How an archive row of one table is held to the API: its columns, read as the body a create would send,
 * against the API's write schema; what the service derives (a post's reading time, its scores) against the
 * read schema the API answers it with; and the service's own rules beyond the schema. A row the API would
 * refuse, or could not answer, is refused by the import too.
 */
interface TableRules {
  write?: TObject;
  derived?: TObject;
  rules?: (body: Row) => ValidationIssue[];
}

const pick = (schema: TObject, names: string[]) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, schema.properties[name]!])));

/** The service's own rules, which throw the 400 they would answer; here their issues. */
function issuesOf(rule: () => void): ValidationIssue[] {
  try {
    rule();
    return [];
  } catch (error) {
    if (error instanceof AppError && error.details && 'issues' in error.details)
      return error.details.issues as ValidationIssue[];
    throw error;
  }
}

/** A redirect's paths as the service stores them: normalised; a row that is not was not written by it. */
function redirectIssues(body: Row): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const paths = [
    ['fromPath', normalizePath(String(body.fromPath), 'refuse')],
    ['toPath', normalizeTarget(String(body.toPath))],
  ] as const;
  for (const [field, result] of paths) {
    if (!result.ok) issues.push({ in: 'body', path: `/${field}`, message: `${field} ${result.message}` });
    else if (result.value !== body[field])
      issues.push({ in: 'body', path: `/${field}`, message: `${field} is not normalised (${result.value})` });
  }
  return issues;
}

/**
 * What a write derives from a body (its text, word count, reading time, contents), as deriveBody derives it:
 * every stored row holds exactly that (a change of the rules re-derives every row), so a row that does not
 * was not written by Quire, and its text would be served and searched as it stands.
 */
function derivedIssues(fields: Row, names: ReadonlyArray<'bodyText' | 'wordCount' | 'readingTimeMin' | 'tocItems'>) {
  let derived: Row = {};
  const issues = issuesOf(() => void (derived = { ...deriveBody(fields.bodyJson as BlockWrite[]) }));
  if (issues.length > 0) return issues;
  return (
    names
      // Compared as values: PostgreSQL's jsonb answers an object's members in an order of its own.
      .filter((name) => !isDeepStrictEqual(fields[name], derived[name]))
      .map((name): ValidationIssue => ({ in: 'body', path: `/${name}`, message: `is not what body_json derives` }))
  );
}

function mediaIssues(body: Row): ValidationIssue[] {
  return ACCEPTED_TYPES.includes(String(body.mimeType))
    ? []
    : [{ in: 'body', path: '/mimeType', message: `is not a type Quire accepts (${ACCEPTED_TYPES.join(', ')})` }];
}

const RULES: Record<string, TableRules> = {
  media: { write: MediaUpdateBody, rules: mediaIssues },
  authors: { write: AuthorCreateBody },
  categories: { write: CategoryCreateBody },
  tags: { write: TagCreateBody },
  posts: {
    write: PostCreateBody,
    derived: pick(Post, ['bodyText', 'tocItems', 'readingTimeMin', 'viewCount', 'seoScore', 'readabilityScore']),
    rules: (body) => [
      // Any status a post can reach through the API: a draft may move to each of them but `scheduled`.
      ...issuesOf(() => checkStatusMove('draft', body.status as 'draft')),
      ...derivedIssues(body, ['bodyText', 'wordCount', 'readingTimeMin', 'tocItems']),
    ],
  },
  pages: { write: PageCreateBody, rules: (body) => derivedIssues(body, ['bodyText']) },
  post_revisions: { derived: Type.Object({ fields: PostUpdateBody }) },
  page_revisions: { derived: Type.Object({ fields: PageUpdateBody }) },
  redirects: { write: RedirectCreateBody, rules: redirectIssues },
  link_health: { write: LinkHealthReportBody, derived: pick(LinkHealth, ['hitCount']) },
  [SETTINGS_TABLE]: { write: SiteSettingsPatch, rules: (body) => settingsIssues(body) },
};

const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const snake = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The row by the API's names. */
const fieldsOf = (row: Row): Row =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [camel(column), value]));

/** The fields of `schema` that the row has. */
const bodyOf = (schema: TObject, fields: Row): Row =>
  Object.fromEntries(
    Object.entries(fields).filter(([field, value]) => value !== undefined && field in schema.properties),
  );

const compiled = new Map<TObject, Validator>();
function validate(schema: TObject, body: Row): ValidationIssue | null {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = validatorCompiler({ schema, httpPart: 'body' })));
  if (check(body)) return null;
  return toIssue(check.errors![0]!, 'body', new Set());
}

/** Where an issue is, by the archive's column names: `/bodyJson/0/type` is `body_json/0/type`. */
function columnPath(pointer: string): string {
  const [, field = '', ...rest] = pointer.split('/');
  return [snake(field), ...rest].join('/');
}

/**
 * Why the API would refuse the archive row `row` of `table` (a table's name, or site_settings), in words
 * naming the row's field, or null. `fields` of a revision are the body a restore would write.
 */
export function apiRuleProblem(table: ArchivedTable | typeof SETTINGS_TABLE, row: Row): string | null {
  const name = typeof table === 'string' ? table : table.name;
  const rules = RULES[name];
  if (!rules) return null;
  const fields = fieldsOf(row);
  for (const schema of [rules.write, rules.derived]) {
    const issue = schema ? validate(schema, bodyOf(schema, fields)) : null;
    if (issue) return `${columnPath(issue.path)} ${issue.message}`;
  }
  const issue = rules.rules?.(fields)[0];
  return issue ? `${columnPath(issue.path)}: ${issue.message}` : null;
}
