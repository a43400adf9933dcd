import type { components, operations } from './schema.js';

/*
 * Names for the generated types (schema.d.ts is regenerated from the server's OpenAPI document by
 * `npm run openapi`; never edit it by hand).
 */

type Schemas = components['schemas'];

export type Post = Schemas['Post'];
export type PostCreateBody = Schemas['PostCreateBody'];
export type PostUpdateBody = Schemas['PostUpdateBody'];
export type Page = Schemas['Page'];
export type PageCreateBody = Schemas['PageCreateBody'];
export type PageUpdateBody = Schemas['PageUpdateBody'];
export type Media = Schemas['Media'];
export type MediaUpdateBody = Schemas['MediaUpdateBody'];
export type MediaUsage = Schemas['MediaUsage'];
export type Author = Schemas['Author'];
export type AuthorCreateBody = Schemas['AuthorCreateBody'];
export type AuthorUpdateBody = Schemas['AuthorUpdateBody'];
export type Category = Schemas['Category'];
export type CategoryCreateBody = Schemas['CategoryCreateBody'];
export type CategoryUpdateBody = Schemas['CategoryUpdateBody'];
export type Tag = Schemas['Tag'];
export type TagCreateBody = Schemas['TagCreateBody'];
export type TagUpdateBody = Schemas['TagUpdateBody'];
export type Redirect = Schemas['Redirect'];
export type RedirectCreateBody = Schemas['RedirectCreateBody'];
export type RedirectUpdateBody = Schemas['RedirectUpdateBody'];
export type RedirectResolution = Schemas['RedirectResolution'];
export type LinkHealth = Schemas['LinkHealth'];
export type LinkHealthReportBody = Schemas['LinkHealthReportBody'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyWithSecret = Schemas['ApiKeyWithSecret'];
export type ApiKeyCreateBody = Schemas['ApiKeyCreateBody'];
export type ApiKeyUpdateBody = Schemas['ApiKeyUpdateBody'];
export type SiteSettings = Schemas['SiteSettings'];
export type PostRevision = Schemas['PostRevision'];
export type PageRevision = Schemas['PageRevision'];
export type RevisionSummary = Schemas['RevisionSummary'];
export type ChangeEvent = Schemas['ChangeEvent'];
export type ChangesPage = Schemas['ChangesPage'];
export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookCreateBody = Schemas['WebhookCreateBody'];
export type WebhookUpdateBody = Schemas['WebhookUpdateBody'];
export type WebhookDelivery = Schemas['Delivery'];
export type WebhookDeliveryAttempt = Schemas['DeliveryAttempt'];
export type Block = Schemas['Block'];
export type BlockWrite = Schemas['BlockWrite'];
export type Seo = Schemas['Seo'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

export type OperationId = keyof operations;

/** The query parameters of an operation. */
export type QueryOf<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;

/** The JSON request body of an operation. */
export type BodyOf<Op extends OperationId> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The body of an operation's success answer (200 or 201). */
export type ResultOf<Op extends OperationId> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer Result } };
}
  ? Result
  : operations[Op]['responses'] extends { 201: { content: { 'application/json': infer Result } } }
    ? Result
    : never;

/** The items of a list operation's pages. */
export type ItemOf<Op extends OperationId> = ResultOf<Op> extends { data: Array<infer Item> } ? Item : never;

export type PostListQuery = QueryOf<'listPosts'>;
export type PostList = ResultOf<'listPosts'>;

/**
 * `fields`, as the client takes it: the names of the top-level fields wanted (an array the client joins with
 * commas). The answer then holds those and `id`, and its type says so.
 */
export type FieldsOf<Item> = ReadonlyArray<keyof Item & string>;

/** An item cut to the fields asked for (all of it when none were). */
export type Selected<Item, Fields extends ReadonlyArray<keyof Item & string> | undefined> =
  Fields extends ReadonlyArray<infer Field extends keyof Item & string>
    ? Pick<Item, Field | ('id' & keyof Item)>
    : Item;

/** A page of `Item`s cut to the fields asked for. */
export type SelectedPage<Page, Item, Fields extends ReadonlyArray<keyof Item & string> | undefined> = Omit<
  Page,
  'data'
> & { data: Array<Selected<Item, Fields>> };
