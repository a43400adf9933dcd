import type { Handler, HandlerLoader, HandlerOptions, ValidationIssue } from '@adobe/structured-data-validator';
import { subclassesOf, type SchemaOrgVocabulary } from './schemaorg-vocabulary.js';

/*
 * Google's rich-result requirements for the types Quire emits that @adobe/structured-data-validator has no
 * handler for (it covers BreadcrumbList, ListItem, Person, Organization, ImageObject, HowToStep …, not
 * Article, FAQPage or HowTo). Written from Google Search Central's pages for Article, FAQ, How-to and
 * Profile page: "required" there is an ERROR here, "recommended" a WARNING. The 110-character headline is
 * Quire's own promise (docs/seo.md), so it is an ERROR too. For BreadcrumbList the validator has a handler,
 * but it reports a crumb without its `item` URL as a warning, where Google's Breadcrumb page requires one on
 * every crumb but the last (its Rich Results Test calls the trail invalid): that is an ERROR here.
 */

type Node = Record<string, unknown>;
type Check = (node: Node, path: HandlerOptions['path']) => ValidationIssue | null;

const missing = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const required =
  (field: string): Check =>
  (node, path) =>
    missing(node[field])
      ? { issueMessage: `Required attribute "${field}" is missing`, severity: 'ERROR', path, fieldNames: [field] }
      : null;

const recommended =
  (field: string): Check =>
  (node, path) =>
    missing(node[field])
      ? { issueMessage: `Missing field "${field}" (optional)`, severity: 'WARNING', path, fieldNames: [field] }
      : null;

const atMost =
  (field: string, max: number): Check =>
  (node, path) => {
    const value = node[field];
    return typeof value === 'string' && [...value].length > max
      ? { issueMessage: `"${field}" is longer than ${max} characters`, severity: 'ERROR', path, fieldNames: [field] }
      : null;
  };

const ARTICLE: Check[] = [
  atMost('headline', 110),
  recommended('headline'),
  recommended('author'),
  recommended('datePublished'),
  recommended('dateModified'),
  recommended('image'),
];

/** Every crumb but the last (by position) needs the URL of its page as `item`. */
const crumbUrls: Check = (node, path) => {
  const items = [node.itemListElement].flat().filter((item): item is Node => typeof item === 'object' && item !== null);
  const last = Math.max(...items.map((item) => Number(item.position)));
  const bare = items.filter((item) => Number(item.position) !== last && missing(item.item));
  return bare.length === 0
    ? null
    : {
        issueMessage: `Required attribute "item" is missing on ${bare.length} crumb(s) before the last`,
        severity: 'ERROR',
        path,
        fieldNames: ['item'],
      };
};

const RULES: Record<string, Check[]> = {
  BreadcrumbList: [crumbUrls],
  FAQPage: [required('mainEntity')],
  Question: [required('name'), required('acceptedAnswer')],
  Answer: [required('text')],
  HowTo: [required('name'), required('step')],
  ProfilePage: [required('mainEntity'), recommended('dateCreated'), recommended('dateModified')],
};

function loader(checks: readonly Check[]): HandlerLoader {
  class RulesHandler implements Handler {
    constructor(private readonly options: HandlerOptions) {}
    validate(node: Node): ValidationIssue[] {
      return checks
        .map((check) => check(node, this.options.path))
        .filter((issue): issue is ValidationIssue => issue !== null);
    }
  }
  return () => Promise.resolve({ default: RulesHandler });
}

/** Handlers by @type, to add to a Validator's own: every subclass of Article gets the Article rules. */
export function googleRichResultHandlers(vocabulary: SchemaOrgVocabulary): Record<string, HandlerLoader> {
  const handlers: Record<string, HandlerLoader> = {};
  for (const type of subclassesOf(vocabulary, 'Article')) handlers[type] = loader(ARTICLE);
  for (const [type, checks] of Object.entries(RULES)) handlers[type] = loader(checks);
  return handlers;
}
