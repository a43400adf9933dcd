import type { APIRoute, GetStaticPaths } from 'astro';
import { keptFile } from '../../lib/files';
import { site } from '../../lib/site';

/** Each sitemap the index names, as Quire wrote it with the site's own links. */
export const getStaticPaths: GetStaticPaths = () =>
  Object.keys(site().store.files)
    .filter((path) => path.startsWith('/sitemaps/'))
    .map((path) => ({ params: { name: path.slice('/sitemaps/'.length) } }));

export const GET: APIRoute = ({ params }) => keptFile(`/sitemaps/${params.name}`);
