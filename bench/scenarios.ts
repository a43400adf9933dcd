import type { Dataset } from './dataset.js';
import type { Fixtures } from './fixtures.js';
import { EXTERNAL } from './quire-server.js';

/**
 * Which server a scenario runs against: `warm` the default server (its response cache allowed),
 * `no-cache` one started with QUIRE_RESPONSE_CACHE_MB=0, `cold` the default server with a write
 * before every read. Each block gets a fresh server process.
 */
export type Block = 'warm' | 'no-cache' | 'cold';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  apiKey: string | null;
  /** JSON bodies, sent in turn (one after the other across all connections). */
  bodies: string[];
  /** Reads are what a cold scenario reports; its writes only invalidate. */
  kind: 'read' | 'write';
  expectStatus: number;
  /** Sent as Accept-Encoding; unset, the request asks for no compression. */
  acceptEncoding?: string;
}

export interface Scenario {
  name: string;
  block: Block;
  what: string;
  /** Sent in this order on every connection, over and over. */
  requests: RequestSpec[];
  /**
   * `amount`: a fixed number of requests (sized from the warm-up's rate) instead of a fixed time,
   * so no request is still in flight when the run ends: link-health's hitCount must come out exact.
   */
  bounded: 'duration' | 'amount';
}

export const SCENARIO_NAMES = [
  'post-by-slug',
  'post-by-slug-no-cache',
  'post-by-slug-cold',
  'list-default',
  'list-default-no-cache',
  'list-default-cold',
  'list-default-br',
  'list-default-gzip-no-cache',
  'list-default-br-no-cache',
  'list-default-gzip-cold',
  'post-by-slug-gzip-no-cache',
  'list-100',
  'list-100-br',
  'list-by-tag',
  'list-by-category',
  'list-by-status',
  'list-by-tag-no-cache',
  'list-by-category-no-cache',
  'newest-published',
  'newest-published-no-cache',
  'newest-published-cold',
  'search-common',
  'search-common-no-cache',
  'search-rare',
  'search-rare-no-cache',
  'deep-page',
  'patch-60-blocks',
  'link-health',
  'media-file',
  'unauthorized-401',
] as const;

/** The block a scenario name belongs to: its suffix says which server it needs. */
export function blockOf(name: string): Block {
  return name.endsWith('-no-cache') ? 'no-cache' : name.endsWith('-cold') ? 'cold' : 'warm';
}

export function buildScenarios(dataset: Dataset, fixtures: Fixtures): Scenario[] {
  const read = (path: string, apiKey: string | null = dataset.key, expectStatus = 200): RequestSpec => ({
    method: 'GET',
    path,
    apiKey,
    bodies: [],
    kind: 'read',
    expectStatus,
  });
  const coldWrite: RequestSpec = {
    method: 'PATCH',
    path: `${EXTERNAL}/posts/${fixtures.coldWrite.postId}`,
    apiKey: dataset.key,
    bodies: fixtures.coldWrite.bodies,
    kind: 'write',
    expectStatus: 200,
  };
  const bySlug = read(`${EXTERNAL}/posts/${fixtures.post.slug}`);
  const list = read(`${EXTERNAL}/posts`);
  const byPublished = 'orderBy=publishedAt&order=desc';
  const newest = `status=published&${byPublished}`;
  const searchCommon = read(`${EXTERNAL}/posts?q=${encodeURIComponent(fixtures.common.text)}`);
  const searchRare = read(`${EXTERNAL}/posts?q=${encodeURIComponent(fixtures.rare.text)}`);
  const scenario = (
    name: string,
    what: string,
    requests: RequestSpec[],
    bounded: Scenario['bounded'] = 'duration',
  ): Scenario => ({
    name,
    block: blockOf(name),
    what,
    requests,
    bounded,
  });

  return [
    scenario(
      'post-by-slug',
      `GET /posts/${fixtures.post.slug}: author (with avatar), category path, featured media, tags, related posts`,
      [bySlug],
    ),
    scenario('post-by-slug-no-cache', 'the same, server started with QUIRE_RESPONSE_CACHE_MB=0', [bySlug]),
    scenario('post-by-slug-cold', "the same read, each after a PATCH of another post's title on the same connection", [
      coldWrite,
      bySlug,
    ]),
    scenario('list-default', 'GET /posts: the default page of 10, every embed', [list]),
    scenario('list-default-no-cache', 'the same, server started with QUIRE_RESPONSE_CACHE_MB=0', [list]),
    scenario('list-default-cold', "the same read, each after a PATCH of another post's title on the same connection", [
      coldWrite,
      list,
    ]),
    scenario('list-default-br', 'GET /posts with Accept-Encoding: br: the same page, compressed once and kept', [
      { ...list, acceptEncoding: 'br' },
    ]),
    // What real clients ask for: Node's fetch sends `gzip, deflate`, browsers and CDNs add br. A miss compresses.
    scenario('list-default-gzip-no-cache', 'list-default-no-cache with Accept-Encoding: gzip, deflate', [
      { ...list, acceptEncoding: 'gzip, deflate' },
    ]),
    scenario('list-default-br-no-cache', 'list-default-no-cache with Accept-Encoding: br', [
      { ...list, acceptEncoding: 'br' },
    ]),
    scenario('list-default-gzip-cold', 'list-default-cold with Accept-Encoding: gzip, deflate', [
      coldWrite,
      { ...list, acceptEncoding: 'gzip, deflate' },
    ]),
    scenario('post-by-slug-gzip-no-cache', 'post-by-slug-no-cache with Accept-Encoding: gzip, deflate', [
      { ...bySlug, acceptEncoding: 'gzip, deflate' },
    ]),
    scenario('list-100', 'GET /posts?pageSize=100: a page of 100, every embed', [
      read(`${EXTERNAL}/posts?pageSize=100`),
    ]),
    scenario('list-100-br', 'the same with Accept-Encoding: br', [
      { ...read(`${EXTERNAL}/posts?pageSize=100`), acceptEncoding: 'br' },
    ]),
    scenario('list-by-tag', 'GET /posts?tagId=…&orderBy=publishedAt&order=desc', [
      read(`${EXTERNAL}/posts?tagId=${fixtures.tagId}&${byPublished}`),
    ]),
    scenario('list-by-category', 'GET /posts?categoryId=…&orderBy=publishedAt&order=desc', [
      read(`${EXTERNAL}/posts?categoryId=${fixtures.categoryId}&${byPublished}`),
    ]),
    // The list shapes themselves (issue 26): the warm rows above measure the cache's copy of them.
    scenario('list-by-tag-no-cache', 'the tag list, server started with QUIRE_RESPONSE_CACHE_MB=0', [
      read(`${EXTERNAL}/posts?tagId=${fixtures.tagId}&${byPublished}`),
    ]),
    scenario('list-by-category-no-cache', 'the category list, server started with QUIRE_RESPONSE_CACHE_MB=0', [
      read(`${EXTERNAL}/posts?categoryId=${fixtures.categoryId}&${byPublished}`),
    ]),
    scenario('list-by-status', 'GET /posts?status=published&orderBy=publishedAt&order=desc', [
      read(`${EXTERNAL}/posts?status=published&${byPublished}`),
    ]),
    scenario('newest-published', `GET /posts?${newest}: the front page of a blog, every embed`, [
      read(`${EXTERNAL}/posts?${newest}`),
    ]),
    scenario('newest-published-no-cache', 'the same, server started with QUIRE_RESPONSE_CACHE_MB=0', [
      read(`${EXTERNAL}/posts?${newest}`),
    ]),
    scenario(
      'newest-published-cold',
      "the same read, each after a PATCH of another post's title on the same connection",
      [coldWrite, read(`${EXTERNAL}/posts?${newest}`)],
    ),
    scenario('search-common', `GET /posts?q=${fixtures.common.text} (${fixtures.common.total} posts match)`, [
      searchCommon,
    ]),
    // The search targets are about the index: these rows show the search itself, not the cache's copy of it.
    scenario('search-common-no-cache', 'the same, server started with QUIRE_RESPONSE_CACHE_MB=0', [searchCommon]),
    scenario('search-rare', `GET /posts?q=${fixtures.rare.text} (${fixtures.rare.total} posts match)`, [searchRare]),
    scenario('search-rare-no-cache', 'the same, server started with QUIRE_RESPONSE_CACHE_MB=0', [searchRare]),
    scenario('deep-page', `GET /posts?pageSize=10&page=${fixtures.lastPage}: the last page`, [
      read(`${EXTERNAL}/posts?pageSize=10&page=${fixtures.lastPage}`),
    ]),
    scenario('patch-60-blocks', 'PATCH /posts/… with a 60-block bodyJson, two versions in turn', [
      {
        method: 'PATCH',
        path: `${EXTERNAL}/posts/${fixtures.patch.postId}`,
        apiKey: dataset.key,
        bodies: fixtures.patch.bodies,
        kind: 'write',
        expectStatus: 200,
      },
    ]),
    scenario(
      'link-health',
      `POST /link-health, ${fixtures.linkHealthPaths.length} paths in turn`,
      [
        {
          method: 'POST',
          path: `${EXTERNAL}/link-health`,
          apiKey: dataset.key,
          bodies: fixtures.linkHealthPaths.map((path) => JSON.stringify({ path, referrer: '/blog/', statusCode: 404 })),
          kind: 'write',
          expectStatus: 200,
        },
      ],
      'amount',
    ),
    scenario('media-file', `GET ${fixtures.mediaPath} (public, no key)`, [read(fixtures.mediaPath, null)]),
    scenario('unauthorized-401', 'GET /posts/<slug> with a revoked key', [read(bySlug.path, dataset.revokedKey, 401)]),
  ];
}
