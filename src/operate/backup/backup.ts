import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { untyped } from '../../db/keyset.js';
import { readSnapshot } from '../../db/snapshot.js';
import type { MediaStorage } from '../../modules/media/storage/storage.js';
import type { MasterKey } from '../../security/master-key.js';
import { silentProgress, type Progress } from '../progress.js';
import { formatVersion } from '../archive/format.js';
import { ArchiveWriter } from '../archive/writer.js';
import { quireRelease } from '../release.js';

export const DATABASE_ENTRY = 'database/quire.sqlite';
export const MASTER_KEY_ENTRY = 'master.key';
export const MEDIA_PREFIX = 'media/';

export interface BackupOptions {
  config: Config;
  database: DatabaseHandle;
  masterKey: MasterKey;
  storage: Pick<MediaStorage, 'get'>;
  out: string;
  progress?: Progress;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  database: 'sqlite' | 'postgres';
  /** The size of the database copy in the backup; null on PostgreSQL, whose database pg_dump backs up. */
  databaseBytes: number | null;
  mediaFiles: number;
  /** Media rows whose file was not in storage when the backup read it (deleted meanwhile, or lost before). */
  missingFiles: number;
  /** Whether the data dir's master.key is in the backup (not when the key comes from QUIRE_MASTER_KEY). */
  masterKeyIncluded: boolean;
  seconds: number;
}

interface Contents {
  migrations: string[];
  mediaPaths: string[];
}

/** The migrations and media paths of the SQLite copy: what the backup's database holds, whatever came after. */
function contentsOfCopy(file: string): Contents {
  const copy = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const names = copy.prepare('select name from quire_migrations order by name').pluck().all() as string[];
    const paths = copy.prepare('select storage_path from media order by storage_path').pluck().all() as string[];
    return { migrations: names, mediaPaths: paths };
  } finally {
    copy.close();
  }
}

async function sqliteBytes(database: DatabaseHandle): Promise<number> {
  const pragma = async (name: string) =>
    Number(Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0]);
  return ((await pragma('page_count')) - (await pragma('freelist_count'))) * (await pragma('page_size'));
}

/**
 * `quire backup`: a consistent snapshot of a running installation in one archive (format.ts, kind
 * `quire-backup`): on SQLite the database as of one instant (snapshotSqlite) and the media files of its
 * rows; the data dir's master.key, without which the API keys in it cannot be revealed; on PostgreSQL the
 * media files and the key only, the database being pg_dump's (docs/operate.md).
 */
export async function backupInstallation(options: BackupOptions): Promise<BackupSummary> {
  const started = performance.now();
  const { config, database, storage } = options;
  const progress = options.progress ?? silentProgress;
  const out = path.resolve(options.out);
  const copy = path.join(path.dirname(out), `.${path.basename(out)}.${crypto.randomBytes(4).toString('hex')}.sqlite`);
  try {
    let contents: Contents;
    if (database.file !== null) {
      progress.start('snapshot the database', await sqliteBytes(database), 'bytes');
      const { snapshotSqlite } = await import('./sqlite-snapshot.js');
      await snapshotSqlite(database.file, copy, (bytes) => progress.update(bytes));
      progress.end();
      contents = contentsOfCopy(copy);
    } else {
      contents = await readSnapshot(database, async (db) => ({
        migrations: (await untyped(db).selectFrom('quire_migrations').select('name').orderBy('name').execute()).map(
          (row) => String(row.name),
        ),
        mediaPaths: (await db.selectFrom('media').select('storage_path').orderBy('storage_path').execute()).map(
          (r) => r.storage_path,
        ),
      }));
    }
    const keyFile = config.masterKey === null ? path.join(config.dataDir, 'master.key') : null;
    const writer = await ArchiveWriter.create(out, {
      format: 'quire-backup',
      version: formatVersion('quire-backup'),
      createdAt: new Date().toISOString(),
      writtenBy: quireRelease(),
      database: database.dialect.name,
      migrations: contents.migrations,
      masterKey: { id: options.masterKey.id, included: keyFile !== null },
      mediaFiles: contents.mediaPaths.length,
    });
    let databaseBytes: number | null = null;
    let mediaFiles = 0;
    let missingFiles = 0;
    try {
      if (database.file !== null) {
        databaseBytes = fs.statSync(copy).size;
        progress.start('archive the database', databaseBytes, 'bytes');
        await writer.file(DATABASE_ENTRY, databaseBytes, fs.createReadStream(copy), (bytes) => progress.update(bytes));
        progress.end();
      }
      if (keyFile) await writer.file(MASTER_KEY_ENTRY, fs.statSync(keyFile).size, fs.createReadStream(keyFile));
      progress.start('archive media files', contents.mediaPaths.length, 'files');
      for (const key of contents.mediaPaths) {
        const stored = await storage.get(key);
        if (stored === null) missingFiles += 1;
        else {
          await writer.file(`${MEDIA_PREFIX}${key}`, stored.size, stored.stream);
          mediaFiles += 1;
        }
        progress.update(mediaFiles + missingFiles);
      }
      progress.end();
      const bytes = await writer.finish();
      return {
        file: out,
        bytes,
        database: database.dialect.name,
        databaseBytes,
        mediaFiles,
        missingFiles,
        masterKeyIncluded: keyFile !== null,
        seconds: Math.round(performance.now() - started) / 1000,
      };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  } finally {
    fs.rmSync(copy, { force: true });
  }
}
