import { compact, firstPlainText, graph, personNode, refTo, type AuthorForLd, type Node } from './json-ld.js';
import type { Seo } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';

export interface AuthorProfileForLd extends AuthorForLd {
  seo: Seo | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * An author as a Person, and the ProfilePage whose mainEntity it is. The profile page exists only where
 * its URL is known (site URL and author URL pattern): without one there is no page to describe.
 */
export function authorJsonLd(author: AuthorProfileForLd, settings: SiteSettings): Node {
  const person = personNode(author, settings);
  const url = siteUrlFor(settings, settings.authorUrlPattern, { slug: author.slug });
  const profile = url
    ? compact({
        '@type': 'ProfilePage',
        '@id': url,
        url,
        name: firstPlainText(author.seo?.title) ?? author.displayName,
        description: firstPlainText(author.seo?.description),
        dateCreated: author.createdAt,
        dateModified: author.updatedAt,
        mainEntity: refTo(person),
      })
    : null;
  return graph([profile, person]);
}
