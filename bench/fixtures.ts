import crypto from 'node:crypto';
import { EXTERNAL } from './quire-server.js';
import { mostFrequentWord, rareTermCandidates, type Term } from './words.js';

/*
 * The concrete inputs of the scenarios, picked from the seeded data through the API itself (the
 * same on both dialects): the benchmark knows the server only as a client would.
 */

const SAMPLE_PAGES = 10; // of 100 posts, newest first
const PATCH_BLOCKS = 60;
const RARE_TRIES = 30;
const LINK_HEALTH_PATHS = 5;

export interface Block {
  type: string;
  [field: string]: unknown;
}

interface PostSample {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  bodyText: string;
  bodyJson: Block[];
  status: string;
  categoryId: string | null;
  author: object | null;
  category: object | null;
  featuredMedia: { url: string; mimeType: string } | null;
  tags: Array<{ id: string }>;
  relatedPosts: Array<{ id: string }>;
}

interface PostPage {
  data: PostSample[];
  total: number;
}

export interface SearchTerm extends Term {
  /** How many posts the server finds for it (`total` of `GET /posts?q=`). */
  total: number;
}

export interface Fixtures {
  /** A published post with an author, a category, a featured image, tags and related posts. */
  post: { id: string; slug: string };
  tagId: string;
  categoryId: string;
  totalPosts: number;
  lastPage: number;
  common: SearchTerm;
  rare: SearchTerm;
  mediaPath: string;
  /** Two bodies of 60 blocks for one post, and the body it had before. */
  patch: { postId: string; bodies: [string, string]; restore: string; blockTypes: string[] };
  /** Two titles for another post (neither the slug post nor one it links to), and the one it had. */
  coldWrite: { postId: string; bodies: [string, string]; restore: string };
  linkHealthPaths: string[];
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  async json<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${EXTERNAL}${pathname}`, {
      method,
      headers: { 'x-api-key': this.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  async searchTotal(text: string): Promise<number> {
    return (await this.json<PostPage>('GET', `/posts?pageSize=1&q=${encodeURIComponent(text)}`)).total;
  }
}

/** The write form of a read block: an image loses its resolved `url`, a heading its derived `id`. */
export function writeForm(block: Block): Block {
  const { url: _url, ...rest } = block;
  if (block.type === 'heading') {
    const { id: _id, ...heading } = rest;
    return heading as Block;
  }
  return block.type === 'image' ? (rest as Block) : block;
}

/** 60 blocks of the sample's bodies, in order, and a second version with one paragraph edited. */
function patchBodies(sample: PostSample[]): { bodies: [string, string]; blockTypes: string[] } {
  const blocks: Block[] = [];
  for (const post of sample) {
    for (const block of post.bodyJson) if (blocks.length < PATCH_BLOCKS) blocks.push(writeForm(block));
  }
  if (blocks.length < PATCH_BLOCKS) throw new Error(`the sample holds only ${blocks.length} blocks`);
  const edited = blocks.map((block) => ({ ...block }));
  const paragraph = edited.find((block) => block.type === 'paragraph');
  if (!paragraph) throw new Error('the sample has no paragraph block');
  paragraph.text = `${String(paragraph.text)} Revised by the benchmark.`;
  return {
    bodies: [JSON.stringify({ bodyJson: blocks }), JSON.stringify({ bodyJson: edited })],
    blockTypes: [...new Set(blocks.map((block) => block.type))].sort(),
  };
}

function hasEveryEmbed(post: PostSample): boolean {
  return (
    post.status === 'published' &&
    post.author !== null &&
    post.category !== null &&
    post.featuredMedia?.mimeType === 'image/png' &&
    post.tags.length > 0 &&
    post.relatedPosts.length > 0
  );
}

async function pickRareTerm(api: Api, sample: string[], log: (line: string) => void): Promise<SearchTerm> {
  let fewest: SearchTerm | null = null;
  let tries = 0;
  for (const candidate of rareTermCandidates(sample)) {
    if (tries++ >= RARE_TRIES) break;
    const total = await api.searchTotal(candidate.text);
    if (total >= 1 && total <= 3) return { ...candidate, total };
    if (total >= 1 && (fewest === null || total < fewest.total)) fewest = { ...candidate, total };
  }
  if (!fewest) throw new Error('no rare search term found in the sample');
  log(`no term found in 1 to 3 posts after ${RARE_TRIES} tries; the rarest tried is in ${fewest.total}`);
  return fewest;
}

export async function discoverFixtures(api: Api, log: (line: string) => void): Promise<Fixtures> {
  const sample: PostSample[] = [];
  let totalPosts = 0;
  for (let page = 1; page <= SAMPLE_PAGES; page += 1) {
    const result = await api.json<PostPage>('GET', `/posts?pageSize=100&page=${page}`);
    totalPosts = result.total;
    sample.push(...result.data);
    if (result.data.length < 100) break;
  }
  const post = sample.find(hasEveryEmbed);
  if (!post) throw new Error(`none of the ${sample.length} sampled posts has every embed`);
  const linked = new Set([
    post.id,
    ...post.relatedPosts.map((related) => related.id),
    ...sample.slice(0, 10).map((p) => p.id),
  ]);
  const spare = sample.filter((candidate) => !linked.has(candidate.id)).reverse();
  const [patchTarget, coldTarget] = spare;
  if (!patchTarget || !coldTarget) throw new Error('the sample is too small to pick posts to write to');

  const texts = sample.map((p) => `${p.title}\n${p.excerpt}\n${p.bodyText}`.toLowerCase());
  const commonWord = mostFrequentWord(texts);
  const common = { ...commonWord, total: await api.searchTotal(commonWord.text) };
  const rare = await pickRareTerm(api, texts, log);
  const patch = patchBodies(sample);
  const runId = crypto.randomBytes(4).toString('hex');

  return {
    post: { id: post.id, slug: post.slug },
    tagId: post.tags[0]!.id,
    categoryId: post.categoryId!,
    totalPosts,
    lastPage: Math.max(1, Math.ceil(totalPosts / 10)),
    common,
    rare,
    mediaPath: new URL(post.featuredMedia!.url).pathname,
    patch: {
      postId: patchTarget.id,
      bodies: patch.bodies,
      restore: JSON.stringify({ bodyJson: patchTarget.bodyJson.map(writeForm) }),
      blockTypes: patch.blockTypes,
    },
    coldWrite: {
      postId: coldTarget.id,
      bodies: [JSON.stringify({ title: `${coldTarget.title} (edited)` }), JSON.stringify({ title: coldTarget.title })],
      restore: JSON.stringify({ title: coldTarget.title }),
    },
    linkHealthPaths: Array.from({ length: LINK_HEALTH_PATHS }, (_, i) => `/bench-${runId}/missing-page-${i + 1}`),
  };
}

/** Puts back what the write scenarios changed, so a kept data dir stays as seeded. */
export async function restoreWrites(api: Api, fixtures: Fixtures): Promise<void> {
  await api.json('PATCH', `/posts/${fixtures.patch.postId}`, fixtures.patch.restore);
  await api.json('PATCH', `/posts/${fixtures.coldWrite.postId}`, fixtures.coldWrite.restore);
}
