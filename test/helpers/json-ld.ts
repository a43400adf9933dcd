import Validator, { type ExtractedData, type ValidationIssue } from '@adobe/structured-data-validator';
import { googleRichResultHandlers } from './google-rich-results.js';
import { schemaOrgVocabulary } from './schemaorg-vocabulary.js';

/*
 * Every jsonLd Quire returns, checked offline the way a crawler would read it from a page:
 *   1. @adobe/structured-data-validator: Google's rich-result rules for the types it knows, and schema.org's
 *      vocabulary (unknown type: ERROR; property outside the type's domain: WARNING), the vocabulary built
 *      from schema-dts (schemaorg-vocabulary.ts);
 *   2. Google's rules for Article, FAQPage, HowTo and ProfilePage, which that validator lacks
 *      (google-rich-results.ts);
 *   3. the graph's own integrity: schema.org context, unique @ids, references that resolve, absolute URLs.
 */

type Node = Record<string, unknown>;
export type JsonLdIssue = ValidationIssue;

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What @marbec/web-auto-extractor makes of `<script type="application/ld+json">` holding `jsonLd`: each
 * node of a @graph becomes a root item, grouped by @type; a node without @type is an extraction error.
 */
export function extractJsonLd(jsonLd: unknown): ExtractedData {
  const extracted: Required<Pick<ExtractedData, 'jsonld' | 'errors'>> = { jsonld: {}, errors: [] };
  const documents = (Array.isArray(jsonLd) ? jsonLd : [jsonLd]).filter(isObject);
  for (const document of structuredClone(documents)) {
    const roots = Array.isArray(document['@graph']) ? document['@graph'] : [document];
    if (document['@context'] === undefined)
      extracted.errors.push({ message: 'JSON-LD object missing @context attribute', format: 'jsonld' });
    for (const root of roots) {
      if (!isObject(root) || root['@type'] === undefined) {
        extracted.errors.push({
          message: 'JSON-LD object missing @type attribute',
          format: 'jsonld',
          source: JSON.stringify(root),
        });
        continue;
      }
      for (const type of [root['@type']].flat().map(String)) (extracted.jsonld[type] ??= []).push(root);
    }
  }
  return { ...extracted, microdata: {}, rdfa: {} };
}

const URL_KEYS = new Set(['@id', 'url', 'item', 'image', 'sameAs', 'logo', 'contentUrl']);

function isAbsoluteUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Quire's own promises about a graph, which no validator checks. */
export function graphIssues(jsonLd: unknown): JsonLdIssue[] {
  const issues: JsonLdIssue[] = [];
  const error = (issueMessage: string) => issues.push({ issueMessage, severity: 'ERROR', errorType: 'graph' });
  if (!isObject(jsonLd) || jsonLd['@context'] !== 'https://schema.org' || !Array.isArray(jsonLd['@graph'])) {
    error('not {"@context": "https://schema.org", "@graph": [...]}');
    return issues;
  }
  const ids = jsonLd['@graph'].flatMap((node) =>
    isObject(node) && typeof node['@id'] === 'string' ? [node['@id']] : [],
  );
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i)))
    error(`@id ${id} names two nodes of the graph`);
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}/${i}`));
    if (!isObject(value)) return;
    const keys = Object.keys(value);
    if (keys.length === 1 && typeof value['@id'] === 'string' && !ids.includes(value['@id']))
      error(`${where}: reference ${value['@id']} to no node of the graph`);
    for (const [key, inner] of Object.entries(value)) {
      if (URL_KEYS.has(key)) {
        for (const url of [inner].flat())
          if (typeof url === 'string' && !isAbsoluteUrl(url))
            error(`${where}/${key}: ${url} is no absolute http(s) URL`);
      }
      walk(inner, `${where}/${key}`);
    }
  };
  walk(jsonLd['@graph'], '/@graph');
  return issues;
}

let validator: Validator | undefined;

function sharedValidator(): Validator {
  if (!validator) {
    const vocabulary = schemaOrgVocabulary();
    validator = new Validator(vocabulary);
    for (const [type, handler] of Object.entries(googleRichResultHandlers(vocabulary))) {
      validator.registeredHandlers[type] = [...(validator.registeredHandlers[type] ?? []), handler];
    }
  }
  return validator;
}

/** Steps 1 and 2 alone, for JSON-LD that is not one of Quire's graphs (a site's own, or one it rewrote). */
export function structuredDataIssues(jsonLd: unknown): Promise<JsonLdIssue[]> {
  return sharedValidator().validate(extractJsonLd(jsonLd));
}

export async function validateJsonLd(jsonLd: unknown): Promise<JsonLdIssue[]> {
  return [...graphIssues(jsonLd), ...(await structuredDataIssues(jsonLd))];
}

export function describeIssue(issue: JsonLdIssue): string {
  const path = (issue.path ?? [])
    .map((step) =>
      [step.property, step.type, step.index === undefined ? '' : `[${step.index}]`].filter(Boolean).join(' '),
    )
    .join(' > ');
  return `${issue.severity} ${path || issue.rootType || issue.errorType || ''}: ${issue.issueMessage}${issue.fieldNames ? ` (${issue.fieldNames.join(', ')})` : ''}`;
}

/** Throws on any error, naming each; answers the warnings, which a caller may list or check. */
export async function expectValidJsonLd(jsonLd: unknown, label = 'jsonLd'): Promise<JsonLdIssue[]> {
  const issues = await validateJsonLd(jsonLd);
  const errors = issues.filter((issue) => issue.severity === 'ERROR');
  if (errors.length > 0) {
    throw new Error(
      `${label} has ${errors.length} structured-data error(s):\n- ${errors.map(describeIssue).join('\n- ')}\n${JSON.stringify(jsonLd, null, 2)}`,
    );
  }
  return issues.filter((issue) => issue.severity === 'WARNING');
}
