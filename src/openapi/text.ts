/** The prose of the document: what the reference page shows above and between the operations. */

export const API_DESCRIPTION = `
The key-authenticated JSON API of Quire, a headless CMS for blog posts and pages.

**Authentication.** Every request carries \`X-API-Key: quire_live_…\`. The key is bound to one workspace and
carries the permissions of the member who created it (\`<resource>:read\` or \`<resource>:write\`;
\`site-settings:read\` has no write), read afresh on every request. Checks run in this order: key (401, also
for paths that do not exist) → route (404, or 405 with \`Allow\`) → permission (403) → validation (400) →
lookup (404) → conflict (409).

**Errors.** Every error is \`{code, message, details}\`; branch on \`code\`, never on \`message\`. Validation
errors carry \`details.issues: [{in, path, message}]\` with JSON Pointer paths. While the database or media
storage is away, any request that needs it answers 503 \`UNAVAILABLE\` with \`Retry-After\`, within seconds.

**Lists** answer \`{data, page, pageSize, order, orderBy?, total, totalPages}\`; \`pageSize\` is 1–100 (default
10), \`order\` needs \`orderBy\`, and unknown query parameters are a 400.

**Caching.** Content reads answer an \`ETag\` with \`Cache-Control: private, no-cache\`; send it back in
\`If-None-Match\` to get a bodiless 304. API-key responses are \`no-store\`.

**Rate limit.** Global per client address, never per key; every request counts, refused ones included. A 429
carries \`Retry-After\` (seconds) and \`RateLimit-Limit/Remaining/Reset\`.

Media files themselves are served publicly, without a key, at the \`url\` of each media item.
`.trim();

export const TAGS = [
  {
    name: 'posts',
    description: 'Blog posts: typed block bodies with derived text, table of contents, reading time and JSON-LD.',
  },
  {
    name: 'pages',
    description: 'Standalone pages (About, Contact …): blocks and JSON-LD, no author, category or tags.',
  },
  { name: 'media', description: 'Uploaded files and their public URLs.' },
  { name: 'authors', description: 'Authors of posts, with their schema.org Person data.' },
  { name: 'categories', description: 'A tree of categories; `path` is the ancestor chain of slugs.' },
  { name: 'tags', description: 'Flat tags attached to posts.' },
  { name: 'redirects', description: 'Path redirects for the site, with loop refusal and chain resolution.' },
  { name: 'link-health', description: 'Broken links the site reports, counted per path.' },
  { name: 'api-keys', description: 'The workspace’s API keys. Responses are never cached.' },
  {
    name: 'content-keys',
    description: 'Read-only keys for sites and browsers (the content API). Responses are never cached.',
  },
  {
    name: 'site-settings',
    description: 'The site URL, URL patterns, publisher and logo the JSON-LD is built from; read-only here.',
  },
  {
    name: 'changes',
    description: 'The workspace’s content events in commit order, for a site that syncs what changed.',
  },
  {
    name: 'webhooks',
    description: 'Signed webhooks (Standard Webhooks): endpoints, their deliveries, redelivery and test events.',
  },
  { name: 'meta', description: 'The API describing itself.' },
];
