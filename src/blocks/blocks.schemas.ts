import { BLOCK_LIMITS, BLOCK_TYPES } from '@quire/blocks';
import type * as Format from '@quire/blocks';
import { ResponsiveFields } from './images.js';
import { Nullable, Uuid } from '../shared/schemas.js';
import { Type, type Static, type TObject, type TSchema } from 'typebox';

/*
 * The block format's schemas, for validation and the OpenAPI document. The format itself (its types, limits and
 * the derivations of a body) is @quire/blocks'; the checks at the end of this file fail the build when a schema
 * and the package's type stop describing the same blocks.
 */

const Text = (maxLength: number = BLOCK_LIMITS.text) => Type.String({ maxLength });
const Url = Type.String({ minLength: 1, maxLength: BLOCK_LIMITS.url, format: 'uri' });

function block<const T extends string, P extends Record<string, TSchema>>(type: T, properties: P) {
  return Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false });
}

const HeadingLevel = Type.Union([Type.Literal(2), Type.Literal(3), Type.Literal(4)]);

const paragraph = block('paragraph', { text: Text(BLOCK_LIMITS.paragraphText) });
const list = block('list', {
  style: Type.Union([Type.Literal('bullet'), Type.Literal('ordered')]),
  items: Type.Array(Text(), { maxItems: BLOCK_LIMITS.listItems }),
});
const code = block('code', { language: Type.String({ maxLength: 50 }), code: Text(BLOCK_LIMITS.code) });
const quote = block('quote', { text: Text(), attribution: Type.Optional(Text(500)) });
const divider = block('divider', {});
const callout = block('callout', {
  variant: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('success'), Type.Literal('error')]),
  title: Type.Optional(Text(500)),
  body: Text(),
});
const videoEmbed = block('video_embed', { url: Url, title: Type.Optional(Text(500)) });
const tweetEmbed = block('tweet_embed', { url: Url });
const faq = block('faq', {
  items: Type.Array(Type.Object({ question: Text(1000), answer: Text() }, { additionalProperties: false }), {
    minItems: BLOCK_LIMITS.faqItems.min,
    maxItems: BLOCK_LIMITS.faqItems.max,
  }),
});
const cta = block('cta', {
  title: Text(500),
  body: Text(),
  linkUrl: Type.String({ maxLength: BLOCK_LIMITS.url }),
  linkLabel: Text(200),
  variant: Type.Union([Type.Literal('default'), Type.Literal('outlined')]),
});
const keyTakeaways = block('key_takeaways', {
  items: Type.Array(Text(), { minItems: BLOCK_LIMITS.keyTakeaways.min, maxItems: BLOCK_LIMITS.keyTakeaways.max }),
});

const HeadingId = Type.String({
  minLength: 1,
  maxLength: BLOCK_LIMITS.headingId,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
});

/** Blocks as a client writes them: a heading's id may be left out; an image carries no url (one sent is ignored). */
const headingWrite = block('heading', { level: HeadingLevel, text: Text(1000), id: Type.Optional(HeadingId) });
const imageWrite = block('image', {
  mediaId: Uuid,
  alt: Type.Optional(Text(1000)),
  caption: Type.Optional(Text(1000)),
  url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  // What a read adds beside the url, accepted back and never stored, like the url.
  width: Type.Optional(Type.Unknown()),
  height: Type.Optional(Type.Unknown()),
  srcset: Type.Optional(Type.Unknown()),
  placeholder: Type.Optional(Type.Unknown()),
});

/** Blocks as every read returns them: every heading has its id, every image its url (null once the media is gone). */
const headingRead = block('heading', { level: HeadingLevel, text: Type.String(), id: Type.String() });
const imageRead = block('image', {
  mediaId: Uuid,
  alt: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
  url: Type.Union([Type.String(), Type.Null()]),
  /** The media's size, srcset and placeholder (blocks/images.ts); absent once the media is gone. */
  width: Type.Optional(Nullable(Type.Integer())),
  height: Type.Optional(Nullable(Type.Integer())),
  ...ResponsiveFields,
});

const COMMON = [
  paragraph,
  list,
  code,
  quote,
  divider,
  callout,
  videoEmbed,
  tweetEmbed,
  faq,
  cta,
  keyTakeaways,
] as const;

/**
 * A discriminated union: ajv picks the branch by `type` (its `discriminator` keyword), so an error
 * points into the one block type that was meant (`/bodyJson/17/items`) rather than at every branch.
 */
function discriminated<T extends TObject[]>(branches: T) {
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    properties: { type: { type: 'string', enum: BLOCK_TYPES } },
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: branches,
  });
}

export const BlockWrite = discriminated([...COMMON, headingWrite, imageWrite]);
export const Block = discriminated([...COMMON, headingRead, imageRead]);

export const BodyWrite = Type.Array(BlockWrite, { maxItems: BLOCK_LIMITS.blocksPerBody });
export const Body = Type.Array(Block);

/** True when A and B are the same type: each assignable to the other, optional and readonly fields alike. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

/** Fails to compile, at the line of the block, when a schema's Static type and the package's type differ. */
type _SchemasDescribeTheFormat = [
  Expect<Same<Static<typeof paragraph>, Format.ParagraphBlock>>,
  Expect<Same<Static<typeof list>, Format.ListBlock>>,
  Expect<Same<Static<typeof code>, Format.CodeBlock>>,
  Expect<Same<Static<typeof quote>, Format.QuoteBlock>>,
  Expect<Same<Static<typeof divider>, Format.DividerBlock>>,
  Expect<Same<Static<typeof callout>, Format.CalloutBlock>>,
  Expect<Same<Static<typeof videoEmbed>, Format.VideoEmbedBlock>>,
  Expect<Same<Static<typeof tweetEmbed>, Format.TweetEmbedBlock>>,
  Expect<Same<Static<typeof faq>, Format.FaqBlock>>,
  Expect<Same<Static<typeof cta>, Format.CtaBlock>>,
  Expect<Same<Static<typeof keyTakeaways>, Format.KeyTakeawaysBlock>>,
  Expect<Same<Static<typeof headingWrite>, Format.HeadingBlockWrite>>,
  Expect<Same<Static<typeof imageWrite>, Format.ImageBlockWrite>>,
  Expect<Same<Static<typeof headingRead>, Format.HeadingBlock>>,
  Expect<Same<Static<typeof imageRead>, Format.ImageBlock>>,
  Expect<Same<Static<typeof BlockWrite>, Format.BlockWrite>>,
  Expect<Same<Static<typeof Block>, Format.Block>>,
  Expect<Same<(typeof BLOCK_TYPES)[number], Static<typeof Block>['type']>>,
];
