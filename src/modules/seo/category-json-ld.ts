import {
  breadcrumbNode,
  categoryCrumbs,
  compact,
  firstPlainText,
  graph,
  refTo,
  type CategoryChainItem,
  type Node,
} from './json-ld.js';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';

export interface CategoryForLd {
  name: string;
  description: string | null;
  /** The category's ancestors and itself, root first. */
  chain: readonly CategoryChainItem[];
}

/** A category as a CollectionPage, with the BreadcrumbList of its path once it has a parent. */
export function categoryJsonLd(category: CategoryForLd, settings: SiteSettings): Node {
  const self = category.chain.at(-1);
  const url = self ? siteUrlFor(settings, settings.categoryUrlPattern, self) : null;
  const breadcrumb = breadcrumbNode(categoryCrumbs(category.chain, settings), url);
  const page = compact({
    '@type': 'CollectionPage',
    '@id': url,
    url,
    name: category.name,
    description: firstPlainText(category.description),
    breadcrumb: refTo(breadcrumb),
  });
  return graph([page, breadcrumb]);
}
