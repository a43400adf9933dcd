import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../../config.js';
import { sqliteFile } from '../../db/database.js';
import { sqliteHelpers } from '../../db/dialects/sqlite/index.js';
import { migrationNames } from '../../db/migrate.js';
import { badRequest } from '../../errors.js';
import { localStorage } from '../../modules/media/storage/local.js';
import { createMediaStorage, type MediaStorage } from '../../modules/media/storage/storage.js';
import { masterKeyFrom } from '../../security/master-key.js';
import { displayDir } from '../data-location.js';
import { silentProgress, type Progress } from '../progress.js';
import { ArchiveError } from '../archive/format.js';
import { openArchive, type OpenedArchive } from '../archive/reader.js';
import { DATABASE_ENTRY, MASTER_KEY_ENTRY, MEDIA_PREFIX } from './backup.js';

export interface RestoreSummary {
  dataDir: string;
  database: 'sqlite' | 'postgres';
  mediaFiles: number;
  masterKeyRestored: boolean;
  backupCreatedAt: string;
  seconds: number;
}

interface BackupHeader {
  database: 'sqlite' | 'postgres';
  migrations: string[];
  masterKey: { id: string; included: boolean };
  createdAt: string;
  writtenBy: string;
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0);
}

/** What must hold before anything is written: an empty data dir, a schema this Quire knows, the right master key. */
function checkRestore(config: Config, file: string, header: BackupHeader): void {
  const where = `${displayDir(config.dataDir)} (QUIRE_DATA_DIR)`;
  if (!isEmptyDir(config.dataDir)) throw badRequest(`${where} is not empty: restore into an empty or new data dir`);
  if (header.database === 'sqlite' && config.databaseUrl)
    throw badRequest(
      `${file} holds a SQLite database and DATABASE_URL is set: restore it without DATABASE_URL (quire migrate-to moves it to PostgreSQL)`,
    );
  const known = new Set(migrationNames(sqliteHelpers));
  const unknown = (header.migrations ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new ArchiveError(
      `${file} holds a database migrated by a newer Quire (${header.writtenBy}; ${unknown[0]}): restore it with that version`,
    );
  const configured = config.masterKey ? masterKeyFrom(config.masterKey).id : null;
  if (configured !== null && configured !== header.masterKey.id)
    throw badRequest(
      `QUIRE_MASTER_KEY is not the key this installation's API keys were encrypted with (its id is ${header.masterKey.id}): unset it, or set that one`,
    );
  if (configured === null && !header.masterKey.included)
    throw badRequest(
      `${file} was made with QUIRE_MASTER_KEY and does not hold the key: set the same QUIRE_MASTER_KEY (id ${header.masterKey.id}) to restore it`,
    );
}

/** An entry's chunks, each one moving the progress to how much of the archive has been read. */
async function* counted(chunks: AsyncIterable<Buffer>, archive: OpenedArchive, progress: Progress) {
  for await (const chunk of chunks) {
    progress.update(archive.bytesRead());
    yield chunk;
  }
}

async function drain(archive: OpenedArchive, progress: Progress): Promise<void> {
  for await (const entry of archive.entries)
    if (entry.kind === 'file') for await (const _ of counted(entry.chunks, archive, progress));
  // The whole archive was read to reach its trailer, whatever the read stream had counted by then.
  progress.update(archive.size);
}

/**
 * `quire restore FILE` into an empty data dir. Everything is written into a new directory beside it, which
 * becomes the data dir only once the whole archive has matched its checksums and the database passes
 * `integrity_check`: a refused or failed restore leaves the data dir as it was. Media in S3 storage is
 * written to the bucket only after a first pass has checked the whole archive.
 */
export async function restoreBackup(
  config: Config,
  file: string,
  progress: Progress = silentProgress,
): Promise<RestoreSummary> {
  const started = performance.now();
  const first = await openArchive(file, 'quire-backup');
  const header = first.header as unknown as BackupHeader;
  try {
    checkRestore(config, file, header);
    if (config.mediaStorage.driver !== 'local') {
      progress.start(`check ${file}`, first.size, 'bytes');
      await drain(first, progress);
      progress.end();
    }
  } finally {
    first.close();
  }

  const staging = `${config.dataDir}.restoring-${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(path.join(staging, 'media'), { recursive: true, mode: 0o700 });
  const storage: Pick<MediaStorage, 'put'> =
    config.mediaStorage.driver === 'local' ? localStorage(path.join(staging, 'media')) : createMediaStorage(config);
  const archive = await openArchive(file, 'quire-backup');
  let mediaFiles = 0;
  let masterKeyRestored = false;
  try {
    progress.start(`restore ${file}`, archive.size, 'bytes');
    for await (const entry of archive.entries) {
      progress.update(archive.bytesRead());
      if (entry.kind !== 'file') continue;
      const chunks = counted(entry.chunks, archive, progress);
      if (entry.name === DATABASE_ENTRY) {
        await pipeline(Readable.from(chunks), fs.createWriteStream(sqliteFile(staging), { mode: 0o600 }));
      } else if (entry.name === MASTER_KEY_ENTRY) {
        await pipeline(Readable.from(chunks), fs.createWriteStream(path.join(staging, 'master.key'), { mode: 0o600 }));
        masterKeyRestored = true;
      } else if (entry.name.startsWith(MEDIA_PREFIX)) {
        await storage.put(entry.name.slice(MEDIA_PREFIX.length), Readable.from(chunks), {
          contentType: 'application/octet-stream',
        });
        mediaFiles += 1;
      }
    }
    progress.update(archive.size);
    progress.end();
    if (header.masterKey.included && !masterKeyRestored)
      throw new ArchiveError(`${file} is damaged: its header names a master.key it does not hold`);
    if (header.database === 'sqlite') {
      const restored = new BetterSqlite3(sqliteFile(staging), { fileMustExist: true });
      try {
        const integrity = String(restored.pragma('integrity_check', { simple: true }));
        if (integrity !== 'ok')
          throw new ArchiveError(`${file} holds a database that fails integrity_check: ${integrity}`);
      } finally {
        restored.close();
      }
    }
    if (fs.existsSync(config.dataDir)) fs.rmdirSync(config.dataDir);
    fs.renameSync(staging, config.dataDir);
  } catch (error) {
    progress.abandon();
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    archive.close();
  }
  return {
    dataDir: config.dataDir,
    database: header.database,
    mediaFiles,
    masterKeyRestored,
    backupCreatedAt: header.createdAt,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}
