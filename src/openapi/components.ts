import { LOWERCASE_UUID } from '../shared/schemas.js';
import type { TSchema } from 'typebox';
import { Block, BlockWrite } from '../blocks/blocks.schemas.js';
import { ErrorEnvelope } from '../http/responses.js';
import {
  ApiKey,
  ApiKeyCreateBody,
  ApiKeyList,
  ApiKeyUpdateBody,
  ApiKeyWithSecret,
} from '../modules/api-keys/api-keys.schemas.js';
import { Author, AuthorCreateBody, AuthorList, AuthorUpdateBody } from '../modules/authors/authors.schemas.js';
import { Person } from '../modules/seo/seo.schemas.js';
import {
  Category,
  CategoryCreateBody,
  CategoryList,
  CategoryUpdateBody,
  CollectionMetadata,
} from '../modules/categories/categories.schemas.js';
import { ChangeEvent, ChangesPage } from '../modules/changes/changes.schemas.js';
import { LinkHealth, LinkHealthList, LinkHealthReportBody } from '../modules/link-health/link-health.schemas.js';
import { Media, MediaList, MediaUpdateBody, MediaUsage } from '../modules/media/media.schemas.js';
import { Page, PageCreateBody, PageList, PageUpdateBody } from '../modules/pages/pages.schemas.js';
import {
  Post,
  PostCreateBody,
  PostList,
  PostUpdateBody,
  RelatedPostSummary,
  TagIdsBody,
  TocItem,
} from '../modules/posts/posts.schemas.js';
import {
  Redirect,
  RedirectCreateBody,
  RedirectList,
  RedirectResolution,
  RedirectUpdateBody,
} from '../modules/redirects/redirects.schemas.js';
import { PageRevision, PostRevision, RevisionList, RevisionSummary } from '../modules/revisions/revisions.schemas.js';
import { ReviewLink, ReviewLinkCreateBody, ReviewLinkList } from '../modules/review-links/review-links.schemas.js';
import { Seo } from '../modules/seo/seo.schemas.js';
import { SiteSettings } from '../modules/site-settings/site-settings.schemas.js';
import { Tag, TagCreateBody, TagList, TagUpdateBody } from '../modules/tags/tags.schemas.js';
import {
  Delivery,
  DeliveryAttempt,
  DeliveryList,
  Webhook,
  WebhookCreateBody,
  WebhookList,
  WebhookUpdateBody,
  WebhookWithSecret,
} from '../modules/webhooks/webhooks.schemas.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * The schemas the document names under `components/schemas`. The routes declare TypeBox schemas
 * inline (TypeBox composes by value), so the generated document repeats a Post in every operation
 * that returns one; naming them makes the document readable and gives generated clients one type
 * per resource. A subschema is replaced by a `$ref` when it is structurally equal to a named one.
 * `JsonLd` and other free-form objects stay inline: `{type: object}` is equal to too many things.
 */
const NAMED: Record<string, TSchema> = {
  ErrorEnvelope,
  Post,
  PostList,
  PostCreateBody,
  PostUpdateBody,
  TagIdsBody,
  TocItem,
  RelatedPostSummary,
  Page,
  PageList,
  PageCreateBody,
  PageUpdateBody,
  PostRevision,
  PageRevision,
  RevisionSummary,
  RevisionList,
  ReviewLink,
  ReviewLinkList,
  ReviewLinkCreateBody,
  Media,
  MediaList,
  MediaUpdateBody,
  MediaUsage,
  Author,
  AuthorList,
  AuthorCreateBody,
  AuthorUpdateBody,
  Person,
  Category,
  CategoryList,
  CategoryCreateBody,
  CategoryUpdateBody,
  CollectionMetadata,
  Tag,
  TagList,
  TagCreateBody,
  TagUpdateBody,
  Redirect,
  RedirectList,
  RedirectCreateBody,
  RedirectUpdateBody,
  RedirectResolution,
  LinkHealth,
  LinkHealthList,
  LinkHealthReportBody,
  ApiKey,
  ApiKeyWithSecret,
  ApiKeyList,
  ApiKeyCreateBody,
  ApiKeyUpdateBody,
  SiteSettings,
  ChangeEvent,
  ChangesPage,
  Webhook,
  WebhookWithSecret,
  WebhookList,
  WebhookCreateBody,
  WebhookUpdateBody,
  Delivery,
  DeliveryAttempt,
  DeliveryList,
  Seo,
  Block,
  BlockWrite,
};

const pascal = (snake: string) =>
  snake.replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());

/** Each block type as a component of its own, so the discriminator can map `type` to it. */
function blockBranches(): Record<string, Json> {
  const branches: Record<string, Json> = {};
  const readForms = new Set<string>();
  for (const branch of (Block as unknown as { oneOf: TSchema[] }).oneOf) {
    const type = String((branch as { properties: { type: { const: string } } }).properties.type.const);
    branches[`${pascal(type)}Block`] = simplify(toJson(branch));
    readForms.add(canonical(simplify(toJson(branch))));
  }
  for (const branch of (BlockWrite as unknown as { oneOf: TSchema[] }).oneOf) {
    const json = simplify(toJson(branch));
    if (readForms.has(canonical(json))) continue;
    const type = String((branch as { properties: { type: { const: string } } }).properties.type.const);
    branches[`${pascal(type)}BlockWrite`] = json;
  }
  return branches;
}

/** A plain JSON copy: TypeBox's own markers (`~kind`, `~optional`) are not enumerable and do not survive. */
export function toJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** JSON with sorted keys: two schemas are the same schema when these strings are equal. */
export function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const isConst = (branch: Json): branch is JsonObject =>
  branch !== null &&
  typeof branch === 'object' &&
  !Array.isArray(branch) &&
  'const' in branch &&
  Object.keys(branch).every((key) => key === 'const' || key === 'type');

/**
 * TypeBox writes a union of literals as `anyOf` of `const`s; OpenAPI tools show an `enum` as a choice
 * (a drop-down in the reference page, a union type in generated clients). Both accept the same values.
 */
export function simplify(value: Json): Json {
  if (Array.isArray(value)) return value.map(simplify);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = {};
  // The lower-casing of UUIDs is the validator's business, not the document's.
  for (const [key, item] of Object.entries(value)) if (key !== LOWERCASE_UUID) copy[key] = simplify(item);
  const branches = copy.anyOf;
  if (Array.isArray(branches) && branches.length > 0 && branches.every(isConst)) {
    const types = new Set(branches.map((branch) => branch.type));
    if (types.size === 1 && !types.has(undefined)) {
      const { anyOf: _anyOf, ...rest } = copy;
      return { ...rest, type: branches[0]!.type!, enum: branches.map((branch) => branch.const!) };
    }
  }
  return copy;
}

export interface NamedSchemas {
  /** `components/schemas`, each already using `$ref` for the named schemas inside it. */
  schemas: Record<string, Json>;
  /** Replaces, anywhere in `value`, each subschema equal to a named one by its `$ref`. */
  reference(value: Json): Json;
}

/**
 * `extra`: more schemas to name (the dashboard document's own); one with the shape of a schema named
 * already is left out, and the existing name stands for it.
 */
export function namedSchemas(extra: Record<string, TSchema> = {}): NamedSchemas {
  const plain: Record<string, Json> = { ...blockBranches() };
  for (const [name, schema] of Object.entries(NAMED)) plain[name] = simplify(toJson(schema));
  const shapes = new Set(Object.values(plain).map(canonical));
  for (const [name, schema] of Object.entries(extra)) {
    const json = simplify(toJson(schema));
    if (!shapes.has(canonical(json))) plain[name] = json;
  }

  const byShape = new Map<string, string>();
  for (const [name, json] of Object.entries(plain)) {
    const shape = canonical(json);
    const taken = byShape.get(shape);
    // Two names for one shape would make every `$ref` to them a guess.
    if (taken) throw new Error(`OpenAPI components ${taken} and ${name} have the same schema`);
    byShape.set(shape, name);
  }

  const reference = (value: Json, self?: string): Json => {
    if (Array.isArray(value)) return value.map((item) => reference(item));
    if (value === null || typeof value !== 'object') return value;
    const name = byShape.get(canonical(value));
    if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) copy[key] = reference(item);
    return addDiscriminatorMapping(
      copy,
      (branch) =>
        (plain[branch] as { properties?: { type?: { const?: string } } } | undefined)?.properties?.type?.const,
    );
  };

  const schemas: Record<string, Json> = {};
  for (const name of Object.keys(plain).sort()) schemas[name] = reference(plain[name]!, name);
  return { schemas, reference: (value) => reference(value) };
}

/**
 * OpenAPI tools (generated clients, the reference page) find a union's branch by the discriminator's
 * `mapping`; ajv, which validates requests, needs none, so the TypeBox schema does not carry one.
 */
function addDiscriminatorMapping(schema: JsonObject, tagOf: (component: string) => string | undefined): JsonObject {
  const discriminator = schema.discriminator as JsonObject | undefined;
  const branches = schema.oneOf;
  if (!discriminator || !Array.isArray(branches)) return schema;
  const mapping: JsonObject = {};
  for (const branch of branches) {
    const ref = (branch as JsonObject).$ref;
    if (typeof ref !== 'string') return schema;
    const tag = tagOf(ref.slice(ref.lastIndexOf('/') + 1));
    if (tag === undefined) return schema;
    mapping[tag] = ref;
  }
  // Only the branches: each requires its own `type`, so the union's own `properties.type` (there for
  // ajv's error messages) adds nothing, and it makes Redocly's example check evaluate no branch fields.
  return { oneOf: branches, discriminator: { ...discriminator, mapping } };
}

export type { Json, JsonObject };
