import { Type, type Static } from 'typebox';

/** Limits of contract §5: SEO texts 300 characters, descriptions (og and twitter included) 1,000. */
const Short = Type.String({ maxLength: 300 });
const Description = Type.String({ maxLength: 1000 });
const Uuid = Type.String({ format: 'uuid' });

const Robots = Type.Object(
  {
    index: Type.Optional(Type.Boolean()),
    follow: Type.Optional(Type.Boolean()),
    archive: Type.Optional(Type.Boolean()),
    imageIndex: Type.Optional(Type.Boolean()),
    snippet: Type.Optional(Type.Boolean()),
    maxSnippet: Type.Optional(Type.Integer({ minimum: -1 })),
    maxImagePreview: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('standard'), Type.Literal('large')])),
    maxVideoPreview: Type.Optional(Type.Integer({ minimum: -1 })),
  },
  { additionalProperties: false },
);

const OpenGraph = Type.Object(
  {
    title: Type.Optional(Short),
    description: Type.Optional(Description),
    type: Type.Optional(Type.String({ maxLength: 50 })),
    imageMediaId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

const Twitter = Type.Object(
  {
    card: Type.Optional(
      Type.Union([
        Type.Literal('summary'),
        Type.Literal('summary_large_image'),
        Type.Literal('app'),
        Type.Literal('player'),
      ]),
    ),
    title: Type.Optional(Short),
    description: Type.Optional(Description),
    creator: Type.Optional(Type.String({ maxLength: 100 })),
    imageMediaId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/** The common Seo object; every field optional, unknown fields refused. */
export const Seo = Type.Object(
  {
    title: Type.Optional(Short),
    description: Type.Optional(Description),
    canonicalUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000 })),
    focusKeyword: Type.Optional(Type.String({ maxLength: 100 })),
    secondaryKeywords: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
    robots: Type.Optional(Robots),
    og: Type.Optional(OpenGraph),
    twitter: Type.Optional(Twitter),
    breadcrumbsTitle: Type.Optional(Short),
    noindexReason: Type.Optional(Short),
    redirectTo: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type Seo = Static<typeof Seo>;

export const NullableSeo = Type.Union([Seo, Type.Null()]);

/** JSON-LD as returned: a free-form object. */
export const JsonLd = Type.Object({}, { additionalProperties: true });
export type JsonLd = Record<string, unknown>;

/** The schema.org Person properties an author may carry into its JSON-LD. */
export const Person = Type.Object(
  {
    jobTitle: Type.Optional(Type.String({ maxLength: 200 })),
    worksFor: Type.Optional(Type.String({ maxLength: 200 })),
    alumniOf: Type.Optional(Type.String({ maxLength: 200 })),
    award: Type.Optional(Type.String({ maxLength: 300 })),
    honorificPrefix: Type.Optional(Type.String({ maxLength: 50 })),
    honorificSuffix: Type.Optional(Type.String({ maxLength: 50 })),
    knowsAbout: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type Person = Static<typeof Person>;
