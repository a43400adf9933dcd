import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../../shared/schemas.js';

const SettingText = Nullable(Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }));
const SettingUrl = Nullable(Type.String({ minLength: 1, maxLength: 2000 }));
const UrlPattern = Nullable(Type.String({ minLength: 1, maxLength: 300 }));

/**
 * A change of the site settings, as the dashboard sends it and an archive's import checks it. Partial: an absent
 * field stays, null clears.
 */
export const SiteSettingsPatch = Type.Object(
  {
    siteName: Type.Optional(SettingText),
    siteUrl: Type.Optional(SettingUrl),
    logoMediaId: Type.Optional(Nullable(Uuid)),
    publisherName: Type.Optional(SettingText),
    publisherUrl: Type.Optional(SettingUrl),
    postUrlPattern: Type.Optional(UrlPattern),
    pageUrlPattern: Type.Optional(UrlPattern),
    authorUrlPattern: Type.Optional(UrlPattern),
    categoryUrlPattern: Type.Optional(UrlPattern),
    previewUrlPattern: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000 }))),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SiteSettingsPatch = Static<typeof SiteSettingsPatch>;
