import type { Insertable } from 'kysely';
import { deriveBody } from '../blocks/derive.js';
import type { PostStatus, PostsTable } from '../db/schema.js';
import { searchWords } from '../shared/search-words.js';
import { slugFrom } from '../shared/slug.js';
import { postColumns } from '../modules/posts/posts.columns.js';
import { scoreColumns } from '../modules/posts/posts.scores.js';
import { composeBody, type BodyFeatures, type ImageChoice } from './body.js';
import { seededId } from './ids.js';
import { Random } from './random.js';
import type { SeedAuthor, SeedCategory, SeedTag, Taxonomy } from './taxonomy.js';
import { Writer } from './text.js';
import { DOMAIN_NAMES, DOMAINS, type DomainName } from './topics.js';

const DAY_MS = 86_400_000;
const TWO_YEARS_MS = 730 * DAY_MS;

/** Body lengths: log-normal around this median (in bodyText words), clamped to the range below. */
const MEDIAN_TARGET_WORDS = 1_080;
const MIN_TARGET_WORDS = 420;
const MAX_TARGET_WORDS = 2_750;

export type NewPost = Insertable<PostsTable>;

export interface SeedPost {
  row: NewPost;
  tagIds: string[];
  /** Earlier posts only, so the rows they point at are always stored first. */
  relatedIds: string[];
}

/** Slugs as the API derives them, `base`, `base-2`, `base-3` …, remembered across the whole run. */
export class SlugRegistry {
  readonly #used = new Set<string>();
  // Where to resume counting per base, so a title used a thousand times costs one probe, not a thousand.
  readonly #next = new Map<string, number>();

  claim(base: string): string {
    let n = this.#next.get(base) ?? 1;
    let slug = n === 1 ? base : `${base}-${n}`;
    while (this.#used.has(slug)) {
      n += 1;
      slug = `${base}-${n}`;
    }
    this.#next.set(base, n + 1);
    this.#used.add(slug);
    return slug;
  }
}

/** What every post draws from: the taxonomy and media by domain, and the run's slugs. */
export class PostFactory {
  readonly #authors: Record<DomainName, SeedAuthor[]>;
  readonly #categories: Record<DomainName, SeedCategory[][]>;
  readonly #tags: Record<DomainName, SeedTag[]>;
  readonly #images: Record<DomainName, ImageChoice[]>;
  readonly #slugs = new SlugRegistry();

  constructor(
    readonly workspaceId: string,
    readonly anchor: number,
    readonly taxonomy: Taxonomy,
    images: ReadonlyArray<ImageChoice & { domain: DomainName | null }>,
  ) {
    const byDomain = <T>(make: (domain: DomainName) => T) =>
      Object.fromEntries(DOMAIN_NAMES.map((d) => [d, make(d)])) as Record<DomainName, T>;
    this.#authors = byDomain((d) => taxonomy.authors.filter((a) => a.domain === d));
    this.#categories = byDomain((d) =>
      [0, 1, 2].map((depth) => taxonomy.categories.filter((c) => c.domain === d && c.depth === depth)),
    );
    this.#tags = byDomain((d) => taxonomy.tags.filter((t) => t.domain === d || t.domain === null));
    const postImages = images.filter((image) => image.domain !== null);
    this.#images = byDomain((d) => {
      const own = postImages.filter((image) => image.domain === d);
      return (own.length > 0 ? own : postImages).map(({ mediaId, alt }) => ({ mediaId, alt }));
    });
  }

  /** Post `index`: its content depends on the index alone, so the same N always gives the same posts. */
  build(index: number): SeedPost {
    const r = new Random(`post:${index}`);
    const everything = index === 0;
    const domain = r.pick(DOMAIN_NAMES);

    const categoryRoll = r.next();
    const depth = categoryRoll < 0.7 ? 2 : categoryRoll < 0.86 ? 1 : 0;
    const category = everything || r.chance(0.9) ? r.pick(this.#categories[domain][depth]!) : null;
    const topics =
      category?.topics ?? this.taxonomy.categories.find((c) => c.domain === domain && c.depth === 0)!.topics;
    const topic = r.pick(topics);
    const otherTopic = r.pick(topics.filter((t) => t !== topic));
    const author =
      everything || r.chance(0.92) ? r.pick(r.chance(0.8) ? this.#authors[domain] : this.taxonomy.authors) : null;
    const writer = new Writer(r, DOMAINS[domain], topic, otherTopic);

    const howTo = r.chance(0.08);
    const title = writer.title(howTo);
    const excerpt = writer.excerpt();
    const features: BodyFeatures = {
      code: everything || r.chance(domain === 'tech' ? 0.75 : domain === 'business' ? 0.15 : 0.03),
      video: everything || r.chance(0.25),
      tweet: everything || r.chance(0.2),
      faq: everything || r.chance(0.3),
      cta: everything || r.chance(0.8),
      takeaways: everything || r.chance(0.7),
    };
    const targetWords = Math.round(
      Math.min(MAX_TARGET_WORDS, Math.max(MIN_TARGET_WORDS, r.logNormal(MEDIAN_TARGET_WORDS, 0.45))),
    );
    const images = this.#images[domain];
    const blocks = composeBody({
      writer,
      targetWords,
      howTo,
      features,
      images,
      handle: author?.handle ?? 'quire_demo',
    });
    const derived = deriveBody(blocks);

    const statusRoll = r.next();
    const status: PostStatus = everything || statusRoll < 0.7 ? 'published' : statusRoll < 0.9 ? 'draft' : 'archived';
    const created = this.anchor - Math.floor(r.next() * TWO_YEARS_MS);
    const published =
      status === 'draft' ? null : created + Math.floor(r.next() * Math.min(14 * DAY_MS, this.anchor - created));
    const lastChange = published ?? created;
    // Most edits come soon after publication; squaring skews the spread that way.
    const updated = lastChange + Math.floor(r.next() ** 2 * (this.anchor - lastChange) * 0.5);
    const featured = images.length > 0 && (everything || r.chance(0.85)) ? r.pick(images).mediaId : null;

    const seo = everything || r.chance(0.75) ? this.#seo(r, title, excerpt, topic, topics, featured, author) : null;
    const summary = r.chance(0.3)
      ? `An article on ${topic} for ${r.pick(writer.domain.who)}. ${writer.sentence()}`
      : null;
    const tagIds = r.sample(this.#tags[domain], everything ? 5 : r.int(0, 5)).map((tag) => tag.row.id);
    const relatedIds: string[] = [];
    if (index > 0 && (everything || r.chance(0.35))) {
      const wanted = Math.min(index, r.int(1, 3));
      const from = Math.max(0, index - 500);
      const picks = new Set<number>();
      while (picks.size < wanted) picks.add(r.int(from, index - 1));
      for (const j of picks) relatedIds.push(seededId(this.workspaceId, 'post', j));
    }

    const iso = (ms: number) => new Date(ms).toISOString();
    const slug = this.#slugs.claim(slugFrom(title, 'post'));
    const bodyJson = JSON.stringify(derived.blocks);
    return {
      tagIds,
      relatedIds,
      row: {
        // Every writable column's value on create first, so a field added to posts.fields.ts needs no line here.
        ...postColumns.write({}, { create: true }),
        id: seededId(this.workspaceId, 'post', index),
        workspace_id: this.workspaceId,
        slug,
        title,
        excerpt,
        body_json: bodyJson,
        body_text: derived.bodyText,
        search_head: searchWords(title, excerpt),
        search_text: searchWords(derived.bodyText),
        toc_items: JSON.stringify(derived.tocItems),
        word_count: derived.wordCount,
        reading_time_min: derived.readingTimeMin,
        featured_media_id: featured,
        author_id: author?.row.id ?? null,
        category_id: category?.row.id ?? null,
        status,
        published_at: published === null ? null : iso(published),
        scheduled_at: null,
        is_how_to: howTo,
        summary_for_ai: summary,
        canonical_url: null,
        view_count: status === 'draft' ? 0 : Math.floor(r.logNormal(600, 1.3)),
        seo,
        schema_type: 'BlogPosting',
        structured_data: null,
        structured_blocks: '[]',
        ...scoreColumns({
          title,
          slug,
          excerpt,
          seo,
          body_json: bodyJson,
          body_text: derived.bodyText,
          word_count: derived.wordCount,
          featured_media_id: featured,
        }),
        deleted_at: null,
        created_at: iso(created),
        updated_at: iso(updated),
      },
    };
  }

  #seo(
    r: Random,
    title: string,
    excerpt: string,
    topic: string,
    topics: string[],
    featured: string | null,
    author: SeedAuthor | null,
  ): string {
    const firstSentence = excerpt.slice(0, excerpt.indexOf('.') + 1) || excerpt;
    const secondary = topics.filter((t) => t !== topic);
    return JSON.stringify({
      title: title.length > 60 ? `${title.slice(0, 57).replace(/\s+\S*$/, '')}…` : title,
      description: firstSentence.slice(0, 160),
      focusKeyword: topic,
      ...(r.chance(0.5) ? { secondaryKeywords: r.sample(secondary, 2) } : {}),
      ...(r.chance(0.4)
        ? {
            og: { title, description: firstSentence, type: 'article', ...(featured ? { imageMediaId: featured } : {}) },
          }
        : {}),
      ...(r.chance(0.3)
        ? { twitter: { card: 'summary_large_image', ...(author ? { creator: `@${author.handle}` } : {}) } }
        : {}),
    });
  }
}
