import type { APIRoute } from 'astro';
import { site } from '../lib/site';

export const GET: APIRoute = () => {
  const s = site();
  const lines = ['User-agent: *', 'Disallow: /preview', 'Disallow: /api/', 'Allow: /'];
  if (s.origin) lines.push('', `Sitemap: ${s.origin}/sitemap.xml`);
  return new Response(`${lines.join('\n')}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
