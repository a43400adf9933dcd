import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { DatabaseHandle } from '../../db/database.js';
import type { MediaRow } from '../../db/schema.js';
import { badRequest, invalid, notFound, type ValidationIssue } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { foldForSearch, searchText } from '../../shared/search.js';
import { isUuid } from '../../shared/slug.js';
import { nowIso } from '../../shared/time.js';
import { contentWrite } from '../../writes/content-write.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { Actor } from '../../security/actor.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';
import { safeFilename } from './media.filename.js';
import { writeTransaction } from '../../db/transaction.js';
import {
  createMediaDerivatives,
  derivativeKeys,
  MAX_VARIANTS,
  parseDerivative,
  variantKey,
  type DerivativeFile,
  type VariantLedger,
} from './media.derivatives.js';
import { withoutGps } from './media.gps.js';
import { ImageDecodeError, inspectImage, TRANSFORMS } from './media.images.js';
import { UploadInspector } from './media.inspector.js';
import { presentMedia } from './media.presenter.js';
import { mediaColumns } from './media.columns.js';
import { mediaRepository as repo, type MediaPatch } from './media.repository.js';
import {
  MEDIA_LIMITS,
  type Media,
  type MediaListQuery,
  type MediaUsage,
  type MediaSortKey,
  type MediaUpdateBody,
} from './media.schemas.js';
import { KINDS } from './media.sniff.js';
import type { ByteRange, MediaStorage } from './storage/storage.js';

/**
 * What a media deletion does to the posts and pages that used it. Their modules own those rows and embed media,
 * so createServices hands this in rather than media importing them.
 */
export interface MediaUsers {
  /** Posts whose featured image went: their SEO score reads it. */
  rescorePosts(trx: ContentTransaction, workspaceId: string, postIds: readonly string[]): Promise<void>;
  /** A page whose image block names the media: its answer changes, so its version moves. */
  touchPage(
    trx: ContentTransaction,
    workspaceId: string,
    page: { id: string; updated_at: string },
    now: string,
  ): Promise<void>;
}

/** One part of a multipart upload, as the HTTP layer hands it over. */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; stream: Readable }
  | { type: 'field'; fieldname: string; value: string; truncated: boolean };

/** Where a failure that the caller cannot act on is reported (a file left behind in storage). */
export interface MediaLog {
  warn(details: object, message: string): void;
}

/** A file the public route may serve. */
export interface MediaFile {
  id: string;
  key: string;
  filename: string;
  mimeType: string;
  /** Raster images are served inline; everything else as a sandboxed attachment. */
  raster: boolean;
  size: number;
  createdAt: string;
}

const RASTER_TYPES = new Set(Object.values(KINDS).flatMap((kind) => (kind.raster ? [kind.mimeType] : [])));
const TEXT_FIELDS = ['alt', 'caption'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

const issue = (path: string, message: string): ValidationIssue => ({ in: 'body', path, message });
const pointer = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

interface StoredUpload {
  key: string;
  filename: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  dominantColor: string | null;
}

export function createMediaService(
  database: DatabaseHandle,
  publicUrl: string,
  storage: MediaStorage,
  { keepGps = false, users }: { keepGps?: boolean; users: MediaUsers },
) {
  const { db, dialect } = database;
  const ledger: VariantLedger = {
    async reserve(row, size, format) {
      const recorded = await writeTransaction(database, (trx) =>
        repo.reserveVariant(
          trx,
          dialect,
          row.workspace_id,
          row.id,
          { size, format, created_at: nowIso() },
          MAX_VARIANTS,
        ),
      );
      if (recorded === null) throw notFound('File');
      if (!recorded)
        throw badRequest(
          `This image has ${MAX_VARIANTS} sizes made beyond the ladder, the most it may have: use one of those`,
          {
            reason: 'too_many_variants',
            maxVariants: MAX_VARIANTS,
            issues: [{ in: 'params', path: '/variant', message: `at most ${MAX_VARIANTS} sizes per image` }],
          },
        );
    },
    release: (row, size, format) => repo.releaseVariant(db, row.workspace_id, row.id, size, format),
    exists: (row) => repo.exists(db, row.workspace_id, row.id),
  };
  const derivatives = createMediaDerivatives(storage, ledger);
  async function requireMedia(
    executor: typeof db,
    workspaceId: string,
    id: string,
    lock?: 'update',
  ): Promise<MediaRow> {
    const row = await repo.findById(executor, workspaceId, id, lock ? { dialect, strength: lock } : undefined);
    if (!row) throw notFound('Media');
    return row;
  }

  /** Streams one file part through the inspector into storage; nothing stays behind when it fails. */
  async function store(
    workspaceId: string,
    mediaId: string,
    part: Extract<UploadPart, { type: 'file' }>,
    maxBytes: number,
  ): Promise<StoredUpload> {
    const inspector = new UploadInspector(maxBytes);
    part.stream.on('error', (error) => inspector.destroy(error));
    part.stream.pipe(inspector);
    let key: string | null = null;
    try {
      const kind = await inspector.kind;
      const filename = safeFilename(part.filename, kind.extension);
      key = `${workspaceId}/${mediaId}/${filename}`;
      await storage.put(key, inspector, { contentType: kind.mimeType });
      const { width = null, height = null } = inspector.dimensions ?? {};
      const upload = { key, filename, mimeType: kind.mimeType, size: inspector.size, width, height };
      if (!kind.raster) return { ...upload, placeholder: null, dominantColor: null };
      const { size, ...facts } = await decodeStored(key, kind.mimeType);
      return { ...upload, size: size ?? upload.size, ...facts };
    } catch (error) {
      // Stops the multipart parser feeding a part nobody reads any more.
      part.stream.destroy();
      if (key) await storage.delete(key).catch(() => undefined);
      // The inspector's own verdict (too large, wrong type) wins over how the storage reported it.
      throw inspector.errored ?? error;
    }
  }

  /**
   * Reads a stored raster image back and decodes it: bytes that do not decode are refused now rather than found
   * broken on a page later, and the displayed size (EXIF orientation applied) and placeholder are kept.
   */
  async function decodeStored(key: string, mimeType: string) {
    return TRANSFORMS(async () => {
      const file = await storage.get(key);
      if (!file) throw new Error(`The upload at ${key} vanished from storage`);
      let bytes: Buffer = await buffer(file.stream);
      // Before the row exists, so no one is served the original with its position.
      const cleaned = keepGps ? null : await withoutGps(bytes, mimeType);
      if (cleaned) {
        await storage.put(key, Readable.from([cleaned]), { contentType: mimeType });
        bytes = cleaned;
      }
      try {
        return { ...(await inspectImage(bytes)), size: cleaned ? cleaned.length : null };
      } catch (error) {
        if (!(error instanceof ImageDecodeError)) throw error;
        throw badRequest('The image is damaged: its pixels could not be decoded', { reason: 'corrupt_image' });
      }
    });
  }

  function readField(part: Extract<UploadPart, { type: 'field' }>, fields: Partial<Record<TextField, string>>): void {
    const name = part.fieldname as TextField;
    if (!TEXT_FIELDS.includes(name))
      throw invalid([
        issue(pointer(part.fieldname), `${part.fieldname} is not a known field; send file, alt and caption only`),
      ]);
    if (fields[name] !== undefined) throw invalid([issue(pointer(name), `${name} is given more than once`)]);
    if (part.truncated || part.value.length > MEDIA_LIMITS[name])
      throw invalid([issue(pointer(name), `must NOT have more than ${MEDIA_LIMITS[name]} characters`)]);
    fields[name] = part.value;
  }

  return {
    async list(actor: Actor, query: MediaListQuery, page: PageRequest<MediaSortKey>): Promise<Paginated<Media>> {
      const filter = {
        q: query.q ? foldForSearch(query.q) : undefined,
        mimeTypePrefix: query.mimeTypePrefix?.toLowerCase(),
      };
      const { rows, total } = await repo.list(db, dialect, actor.workspaceId, filter, page);
      return pageOf(
        page,
        rows.map((row) => presentMedia(publicUrl, row)),
        total,
      );
    },

    async get(actor: Actor, id: string): Promise<Media> {
      return presentMedia(publicUrl, await requireMedia(db, actor.workspaceId, id));
    },

    /**
     * Exactly one file part named `file`, and optional `alt` and `caption` fields, in any order. The
     * file is streamed to storage as it arrives; the row is written once every part has been read.
     */
    async upload(
      actor: Actor,
      parts: AsyncIterable<UploadPart>,
      { maxBytes, log }: { maxBytes: number; log: MediaLog },
    ): Promise<Media> {
      const workspaceId = actor.workspaceId;
      const id = crypto.randomUUID();
      const fields: Partial<Record<TextField, string>> = {};
      let stored: StoredUpload | null = null;
      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            readField(part, fields);
            continue;
          }
          if (part.fieldname !== 'file' || stored) {
            part.stream.destroy();
            throw invalid([
              issue(
                pointer(part.fieldname),
                stored
                  ? 'send exactly one file part'
                  : `${part.fieldname} is not a known field; send the file as the part named file`,
              ),
            ]);
          }
          stored = await store(workspaceId, id, part, maxBytes);
        }
        if (!stored) throw invalid([issue('/file', 'file is required: send the file as a multipart part named file')]);
        const upload = stored;
        const alt = fields.alt ?? null;
        const caption = fields.caption ?? null;
        return await contentWrite(database, actor, async ({ trx, changed }) => {
          const now = nowIso();
          await repo.insert(trx, workspaceId, {
            id,
            storage_path: upload.key,
            filename: upload.filename,
            mime_type: upload.mimeType,
            size_bytes: upload.size,
            width: upload.width,
            height: upload.height,
            placeholder: upload.placeholder,
            dominant_color: upload.dominantColor,
            alt,
            caption,
            search_text: searchText(alt, caption, upload.filename),
            uploaded_by_user_id: actor.userId,
            uploaded_by_api_key_id: actor.apiKeyId,
            created_at: now,
            updated_at: now,
          });
          changed({ type: 'media', id, slug: null, action: 'created' });
          return presentMedia(publicUrl, await requireMedia(trx, workspaceId, id));
        });
      } catch (error) {
        if (stored) {
          const key = stored.key;
          await storage
            .delete(key)
            .catch((cause: unknown) => log.warn({ err: cause, key }, 'could not remove the file of a failed upload'));
        }
        throw error;
      }
    },

    async update(actor: Actor, id: string, body: MediaUpdateBody): Promise<Media> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireMedia(trx, workspaceId, id);
        const patch: MediaPatch = { ...(mediaColumns.write(body) as MediaPatch), updated_at: nowIso() };
        patch.search_text = searchText(
          patch.alt === undefined ? current.alt : patch.alt,
          patch.caption === undefined ? current.caption : patch.caption,
          current.filename,
        );
        await repo.update(trx, workspaceId, id, patch);
        changed({ type: 'media', id, slug: null, action: 'updated' });
        return presentMedia(publicUrl, await requireMedia(trx, workspaceId, id));
      });
    },

    /**
     * Deletes the row and answers it as it was. Image blocks keep their mediaId (their url reads
     * null); the file goes once the transaction has committed, so a rollback never loses bytes.
     */
    async remove(actor: Actor, id: string, log: MediaLog): Promise<Media> {
      const workspaceId = actor.workspaceId;
      let variants: Array<{ size: string; format: string }> = [];
      const answer = await contentWrite(database, actor, async ({ trx, changed }) => {
        // Locked first, so a write naming the media at the same moment has committed (and is counted below)
        // or finds it gone.
        const current = await requireMedia(trx, workspaceId, id, 'update');
        // The foreign keys clear posts' featured images (which their SEO score reads) and avatars; an image
        // block keeps its mediaId and reads a null url. Each post and page whose answer changes moves its version.
        const { posts, pages, authors } = await repo.usersOf(trx, dialect, workspaceId, id);
        // Read before the row goes (its variants go with it, by the foreign key): their files go after the commit.
        variants = await repo.variantsOf(trx, workspaceId, id);
        const logo = await workspacesRepository.releaseLogo(trx, workspaceId, id);
        await repo.delete(trx, workspaceId, id);
        await users.rescorePosts(
          trx,
          workspaceId,
          posts.map((post) => post.id),
        );
        const now = nowIso();
        for (const page of pages) await users.touchPage(trx, workspaceId, page, now);
        changed({ type: 'media', id, slug: null, action: 'deleted' });
        for (const post of posts) changed({ type: 'post', id: post.id, slug: post.slug, action: 'updated' });
        for (const page of pages) changed({ type: 'page', id: page.id, slug: page.slug, action: 'updated' });
        for (const author of authors) changed({ type: 'author', id: author.id, slug: author.slug, action: 'updated' });
        if (logo) changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
        return presentMedia(publicUrl, current);
      });
      // The public URL already answers 404 (it needs the row); a file left behind only costs space. The
      // derivatives go first: a local directory is removed with its last file.
      const row = { workspace_id: workspaceId, id, filename: answer.filename, mime_type: answer.mimeType };
      const made = variants.map((variant) => variantKey(row, variant.size, variant.format));
      for (const key of [...derivativeKeys({ ...row, width: answer.width }), ...made]) {
        await storage
          .delete(key)
          .catch((cause: unknown) => log.warn({ err: cause, key }, 'could not remove a derivative'));
      }
      await storage
        .delete(answer.storagePath)
        .catch((cause: unknown) =>
          log.warn({ err: cause, key: answer.storagePath }, 'could not remove the file of a deleted media row'),
        );
      return answer;
    },

    /** The file behind a public URL; a wrong workspace, id or filename, or a deleted row, is a 404. */
    async findFile(workspaceId: string, mediaId: string, filename: string): Promise<MediaFile> {
      if (!isUuid(workspaceId) || !isUuid(mediaId)) throw notFound('File');
      const row = await repo.findById(db, workspaceId, mediaId);
      if (!row || row.filename !== filename) throw notFound('File');
      return {
        id: row.id,
        key: row.storage_path,
        filename: row.filename,
        mimeType: row.mime_type,
        raster: RASTER_TYPES.has(row.mime_type),
        size: Number(row.size_bytes),
        createdAt: row.created_at,
      };
    },

    async usage(actor: Actor, id: string): Promise<MediaUsage> {
      await requireMedia(db, actor.workspaceId, id);
      return repo.usage(db, dialect, actor.workspaceId, id, 50);
    },

    /**
     * A resized copy behind a public URL (`…/w640/photo.webp`, `…/w480-h320-cover-x750-y500/photo.webp`), made
     * on its first request. A malformed id is a 404 like any wrong address; a size out of bounds a 400 saying why.
     */
    async findDerivative(
      workspaceId: string,
      mediaId: string,
      variant: string,
      filename: string,
    ): Promise<DerivativeFile> {
      if (!isUuid(workspaceId) || !isUuid(mediaId)) throw notFound('File');
      const request = parseDerivative(variant, filename);
      if (!request) throw notFound('File');
      const row = await repo.findById(db, workspaceId, mediaId);
      if (!row) throw notFound('File');
      return derivatives.find(row, request);
    },

    async readFile(file: MediaFile, range?: ByteRange): Promise<Readable> {
      const stored = await storage.get(file.key, range);
      if (!stored) throw notFound('File');
      return stored.stream;
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
