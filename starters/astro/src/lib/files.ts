import { site } from './site';

const TYPES: Record<string, string> = {
  '.xml': 'application/xml; charset=utf-8',
  '.json': 'application/feed+json; charset=utf-8',
};

/** A feed or sitemap as the last sync kept it (lib/files.mjs), or a 404 when Quire had none of that name. */
export function keptFile(path: string): Response {
  const text = site().store.files[path];
  if (text === undefined) return new Response('Not found\n', { status: 404 });
  const type = TYPES[path.slice(path.lastIndexOf('.'))] ?? 'text/plain; charset=utf-8';
  return new Response(text, { headers: { 'content-type': type } });
}
