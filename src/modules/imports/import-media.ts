import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DatabaseHandle } from '../../db/database.js';
import { existingIds } from '../../db/references.js';
import type { Actor } from '../../security/actor.js';
import type { AlongsideWriter } from '../../writes/content-write.js';
import { nowIso } from '../../shared/time.js';
import type { MediaService } from '../media/media.service.js';
import { importLedgerRepository, type LedgerKey } from './import-ledger.repository.js';
import type { MediaRef } from './import-source.js';
import { download, DownloadRefused } from './media-download.js';
import { storable } from './storable.js';

export interface MediaImportOptions {
  source: string;
  dryRun: boolean;
  maxBytes: number;
  allowPrivate: boolean;
  downloadTimeoutMs: number;
}

/** A media file as the import left it: its id, or why it has none. */
/** Downloads from one host that may fail in a row, for want of an answer, before its other files are not tried. */
const HOST_FAILURES = 3;

export type MediaOutcome =
  { mediaId: string; action: 'created' | 'unchanged' | 'adopted' } | { mediaId: null; reason: string };

const cut = (text: string | null | undefined, max: number) => (text ? storable(text).slice(0, max) : null);

/**
 * The media files of one import run. Each file is uploaded once however many items and URLs name it: the ledger
 * keys it by its source reference and by the sha256 of its bytes, and this run remembers what it resolved.
 * Uploads go through the media service (the one write path) with their ledger rows in the same transaction.
 */
export function createMediaImporter(
  database: DatabaseHandle,
  media: MediaService,
  actor: Actor,
  options: MediaImportOptions,
) {
  const resolved = new Map<string, Promise<MediaOutcome>>();
  let scratch: string | null = null;
  // Per host: how many downloads in a row got no answer, and the last error. A site that is down (or a name that
  // does not resolve) would otherwise cost each of its thousands of images a lookup or a time-out.
  const unreachable = new Map<string, { failures: number; error: string }>();
  const keyOf = (itemType: 'media' | 'media-sha256', sourceId: string): LedgerKey => ({
    workspaceId: actor.workspaceId,
    source: options.source,
    itemType,
    sourceId,
  });

  /** Whether an upload of an earlier run is still in the workspace: one query, nothing presented. */
  async function stillThere(mediaId: string): Promise<boolean> {
    return (await existingIds(database.db, database.dialect, 'media', actor.workspaceId, [mediaId])).has(mediaId);
  }

  /** The file's bytes on this machine, and their hash: a download lands in a scratch folder first. */
  async function localCopy(ref: MediaRef): Promise<{ file: string; sha256: string }> {
    if (ref.origin.kind === 'file') {
      const { size } = await stat(ref.origin.path);
      if (size > options.maxBytes) throw new Error(`the file is ${size} bytes, over the ${options.maxBytes} allowed`);
      const hash = createHash('sha256');
      await pipeline(createReadStream(ref.origin.path), hash);
      return { file: ref.origin.path, sha256: hash.digest('hex') };
    }
    const host = new URL(ref.origin.url).host;
    const down = unreachable.get(host);
    if (down && down.failures >= HOST_FAILURES)
      throw new Error(`not tried: ${host} gave no answer to ${HOST_FAILURES} downloads in a row (${down.error})`);
    scratch ??= await mkdtemp(path.join(tmpdir(), 'quire-import-media-'));
    const file = path.join(scratch, randomUUID());
    try {
      const { sha256 } = await download(ref.origin.url, file, {
        timeoutMs: options.downloadTimeoutMs,
        maxBytes: options.maxBytes,
        allowPrivate: options.allowPrivate,
      });
      unreachable.delete(host);
      return { file, sha256 };
    } catch (error) {
      if (!(error instanceof DownloadRefused))
        unreachable.set(host, {
          failures: (unreachable.get(host)?.failures ?? 0) + 1,
          error: (error as Error).message,
        });
      throw error;
    }
  }

  async function importOne(ref: MediaRef): Promise<MediaOutcome> {
    const byRef = await importLedgerRepository.find(database.db, keyOf('media', ref.key));
    if (byRef && (await stillThere(byRef.quireId))) return { mediaId: byRef.quireId, action: 'unchanged' };
    if (options.dryRun) {
      if (ref.origin.kind === 'file') await stat(ref.origin.path);
      // Any id: the dry run converts with it and writes nothing.
      return { mediaId: randomUUID(), action: 'created' };
    }
    const copy = await localCopy(ref);
    try {
      const now = nowIso();
      const bySha = await importLedgerRepository.find(database.db, keyOf('media-sha256', copy.sha256));
      if (bySha && (await stillThere(bySha.quireId))) {
        await importLedgerRepository.record(
          database.db,
          keyOf('media', ref.key),
          { quireId: bySha.quireId, contentHash: copy.sha256 },
          now,
        );
        return { mediaId: bySha.quireId, action: 'adopted' };
      }
      const writer: Actor & AlongsideWriter = {
        ...actor,
        alongside: async (trx, answer) => {
          const quireId = (answer as { id: string }).id;
          await importLedgerRepository.record(trx, keyOf('media', ref.key), { quireId, contentHash: copy.sha256 }, now);
          await importLedgerRepository.record(
            trx,
            keyOf('media-sha256', copy.sha256),
            { quireId, contentHash: copy.sha256 },
            now,
          );
        },
      };
      const fields = [
        ['alt', cut(ref.alt, 1000)],
        ['caption', cut(ref.caption, 2000)],
      ] as const;
      async function* parts() {
        for (const [fieldname, value] of fields)
          if (value) yield { type: 'field' as const, fieldname, value, truncated: false };
        yield {
          type: 'file' as const,
          fieldname: 'file',
          filename: path.posix.basename(ref.key) || 'image',
          stream: createReadStream(copy.file),
        };
      }
      const uploaded = await media.upload(writer, parts(), { maxBytes: options.maxBytes, log: silentLog });
      return { mediaId: uploaded.id, action: 'created' };
    } finally {
      if (ref.origin.kind === 'url') await rm(copy.file, { force: true });
    }
  }

  return {
    /** The media id of a file, uploading it when it has none; a file that cannot be read has a reason instead. */
    resolve(ref: MediaRef): Promise<MediaOutcome> {
      let outcome = resolved.get(ref.key);
      if (!outcome) {
        outcome = importOne(ref).catch((error: Error) => ({ mediaId: null, reason: error.message }));
        // Kept for the run: a copy of the key, which may be a slice of a whole body.
        resolved.set(structuredClone(ref.key), outcome);
      }
      return outcome;
    },
    async close(): Promise<void> {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    },
  };
}

export type MediaImporter = ReturnType<typeof createMediaImporter>;

// A failed upload removes its file itself; nothing is left for the import to say about it.
const silentLog = { warn() {} };
