import type { ConversionNote, ConversionResult, ConvertOptions } from '@quire/blocks';

/*
 * What an importer's reader hands the runner (import-run.ts): a source of items in the order they can be written,
 * each in Quire's terms but still naming the others by the source's own ids. A reader writes nothing and knows
 * nothing of the database: the runner maps source ids to Quire ids through the ledger, uploads media, converts
 * bodies once their images have ids, and writes each item through the services.
 */

export type ImportFormat = 'ghost' | 'wordpress' | 'markdown';

/** Where the bytes of a media file can be read from. */
export type MediaOrigin =
  /** A file on this machine: in an uploads folder, a Markdown folder, or an unpacked zip. Absolute. */
  | { kind: 'file'; path: string }
  /** A URL of the source site's own host, downloaded under the webhook address rules. */
  | { kind: 'url'; url: string };

/** A media file an item refers to. */
export interface MediaRef {
  /**
   * The source's identity of the file, normalised (`__GHOST_URL__` and `/size/wNNN/` taken out, a relative path made
   * from the folder's root): the ledger keys the upload by it, so two references to one file upload it once.
   */
  key: string;
  origin: MediaOrigin;
  alt?: string | null;
  caption?: string | null;
}

export interface ImportAuthor {
  type: 'author';
  sourceId: string;
  slug?: string;
  displayName: string;
  bio?: string | null;
  /** Profile URLs (website, socials): the author's schema.org sameAs. Never an email. */
  sameAs: string[];
}

export interface ImportCategory {
  type: 'category';
  sourceId: string;
  slug?: string;
  name: string;
  description?: string | null;
  /** A parent comes before its children in the source's order. */
  parentSourceId?: string | null;
}

export interface ImportTag {
  type: 'tag';
  sourceId: string;
  slug?: string;
  name: string;
}

/** SEO as the source held it; images as references, which the runner uploads and replaces with media ids. */
export interface ImportSeo {
  title?: string;
  description?: string;
  canonicalUrl?: string;
  focusKeyword?: string;
  secondaryKeywords?: string[];
  robots?: { index?: boolean; follow?: boolean };
  og?: { title?: string; description?: string; image?: MediaRef | null };
  twitter?: { title?: string; description?: string; image?: MediaRef | null };
}

/** The body of a post or page, converted by the runner once the images it names can have media ids. */
export interface ImportBody {
  /**
   * Converts the body into blocks. Images go through `options.resolveImage` with their source as written in the
   * body: the runner calls it once to learn the images (each unresolved one is in `report.images`), uploads them
   * (`ImportSource.locateMedia`), and again with their ids. Deterministic: the same options, the same result.
   */
  convert(options: ConvertOptions): ConversionResult;
  /** The body as the source stored it (its HTML, Markdown or editor JSON): hashed to tell a changed item. */
  fingerprint: string;
}

export interface ImportEntry {
  type: 'post' | 'page';
  sourceId: string;
  title: string;
  slug?: string;
  excerpt?: string;
  status: 'published' | 'draft';
  /** Why the status is not the source's (scheduled, private, pending review): a note of the report. */
  statusNote?: string;
  /** ISO 8601 with an offset. */
  publishedAt?: string | null;
  body: ImportBody;
  /** The first is the author; Quire keeps one, the others are reported. Ids of `ImportAuthor`s. */
  authorSourceIds: string[];
  /** Posts: the first is the category (the primary one where the source marks one), the others are reported. */
  categorySourceIds: string[];
  /** Posts only. */
  tagSourceIds: string[];
  featuredImage?: MediaRef | null;
  seo?: ImportSeo;
  /** Paths on the old site that showed this entry (its permalink, old slugs): redirected to its Quire URL. */
  oldPaths: string[];
  /** What the reader itself could not keep (an unknown editor card, a shortcode left as text). */
  notes: ConversionNote[];
}

/** A redirect the source held as one (Ghost's redirects file, a WordPress redirection plugin). */
export interface ImportRedirect {
  type: 'redirect';
  sourceId: string;
  fromPath: string;
  toPath: string;
  statusCode?: 301 | 302 | 307 | 308;
}

/** An item the reader could not read (malformed, unknown version): reported by name, nothing of it written. */
export interface ImportFailure {
  type: 'failure';
  /** Names the item for a person: `post 42 "Hello world"`, `users[3]`. */
  item: string;
  message: string;
}

export type ImportItem = ImportAuthor | ImportCategory | ImportTag | ImportEntry | ImportRedirect | ImportFailure;

/** What a reader reports about the whole source (counts of what it skipped, such as trashed posts). */
export interface SourceNote {
  message: string;
}

export interface ImportSource {
  format: ImportFormat;
  /**
   * The site the source came from (a WordPress base URL, a Ghost site URL, a folder's name): the ledger's scope,
   * so that post 42 of one site is not post 42 of another.
   */
  site: string;
  /**
   * The items in an order they can be written in: authors, categories (parents first), tags, then posts and
   * pages, then redirects. Streamed: each call reads the source again, from the start, and holds at most one
   * entry's body at a time. A failure to open the source at all throws; a failure of one item is yielded.
   */
  items(): AsyncIterable<ImportItem>;
  /** The reference of an image source as a body or a field wrote it; null when it cannot be read from anywhere. */
  locateMedia(src: string): MediaRef | null;
  /** Posts and pages in the source, for progress; null when only a full read could tell. */
  entryCount(): Promise<number | null>;
  /** What the reader skipped or assumed about the whole source, after `items()` has been read through. */
  sourceNotes(): SourceNote[];
  /** Removes what opening the source made (an unpacked zip). */
  close(): Promise<void>;
}
