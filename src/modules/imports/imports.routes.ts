import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError, unavailable } from '../../errors.js';
import { ErrorResponses } from '../../http/responses.js';
import type { Actor } from '../../security/actor.js';
import { WorkspaceParams } from '../dashboard/dashboard.schemas.js';
import { runImport } from './import-run.js';
import { openImportSource } from './open-source.js';
import { ImportLine } from './imports.schemas.js';
import { importLines, progressLines, type ImportLines } from './imports.stream.js';
import { IMPORT_MULTIPART_LIMITS, receiveImportUpload, type ImportUpload } from './imports.upload.js';

/** How long one media download may take, as on the command line (docs/imports.md). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

const UNEXPECTED =
  'The import stopped on an unexpected error. What was imported before it stays; running the import again carries on from there.';

export interface ImportRoutesOptions {
  database: DatabaseHandle;
  /** The services the runner writes through. */
  services: Parameters<typeof runImport>[1];
  /** The largest export accepted (QUIRE_IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** Each media file's limits, as for the command line: the upload limit and the webhooks' address rule. */
  media: { maxBytes: number; allowPrivate: boolean };
}

interface ImportJob extends ImportUpload {
  /** The request's scratch folder: the upload and what opening it unpacks, removed when the import ends. */
  dir: string;
  actor: Actor;
  lines: ImportLines;
  log: FastifyBaseLogger;
}

/**
 * What the stream's error line says: an AppError's message, never a stack. A reader names the file by the path it
 * was given, which here is the server's scratch folder: the person knows their file by its name.
 */
function errorMessage(database: DatabaseHandle, error: unknown, job: ImportJob): string {
  let message: string;
  if (error instanceof AppError) message = error.message;
  else {
    // The database away mid-import is news the owner can act on (try again later), as the 503 says it.
    const away = database.dialect.unavailable(error);
    if (away === undefined) {
      job.log.error({ err: error }, 'import failed');
      return UNEXPECTED;
    }
    message = unavailable('database', away).message;
  }
  return message.split(job.file).join(path.basename(job.file)).split(`${job.dir}${path.sep}`).join('');
}

/** Opens the upload, runs the import (or its dry run) and ends the stream with the report or the error. */
async function runJob(options: ImportRoutesOptions, job: ImportJob): Promise<void> {
  const { database, services } = options;
  try {
    const workDir = path.join(job.dir, 'work');
    await mkdir(workDir);
    const source = await openImportSource({ format: job.format, path: job.file, workDir });
    try {
      const report = await runImport(database, services, source, {
        actor: job.actor,
        dryRun: job.dryRun,
        strict: false,
        progress: progressLines(job.lines.send),
        media: { ...options.media, downloadTimeoutMs: DOWNLOAD_TIMEOUT_MS },
      });
      job.lines.send({ type: 'report', report });
    } finally {
      await source.close();
    }
  } catch (error) {
    job.lines.send({ type: 'error', message: errorMessage(database, error, job) });
  } finally {
    job.lines.end();
    await rm(job.dir, { recursive: true, force: true });
  }
}

/**
 * POST …/imports (docs/dashboard.md, "Import"): the owner's upload of an export, answered with NDJSON lines of
 * progress and then the report. Errors before the first line (a refused field, a file over the limit) are
 * statuses; once the answer has begun they are its last line. The multipart parser exists in this scope only.
 */
export const dashboardImportsRoutes: FastifyPluginAsyncTypebox<ImportRoutesOptions> = async (app, options) => {
  await app.register(fastifyMultipart, { limits: { ...IMPORT_MULTIPART_LIMITS, fileSize: options.maxBytes } });

  app.post(
    '/workspaces/:workspaceId/imports',
    {
      config: { access: 'owner' },
      // A compressor would hold the progress lines back until its buffer filled.
      compress: false,
      schema: {
        tags: ['dashboard'],
        params: WorkspaceParams,
        response: {
          200: {
            description: 'Progress lines, then one report or error line',
            content: { 'application/x-ndjson': { schema: ImportLine } },
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'quire-import-'));
      let upload: ImportUpload;
      try {
        const uploads = path.join(dir, 'upload');
        await mkdir(uploads);
        upload = await receiveImportUpload(request, uploads, options.maxBytes);
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      // The run's own actor: the route's seal is for a JSON answer, and this one is a stream.
      const { workspaceId, userId, apiKeyId, isOwner, permissions, contentVersion } = request.actor;
      const actor: Actor = { workspaceId, userId, apiKeyId, isOwner, permissions, contentVersion };
      const lines = importLines();
      // Not awaited: the answer streams while it runs, and it runs to its end if the client goes away.
      void runJob(options, { ...upload, dir, actor, lines, log: request.log }).catch((error: unknown) =>
        request.log.error({ err: error }, 'import cleanup failed'),
      );
      return (
        reply
          .code(200)
          .header('Content-Type', 'application/x-ndjson; charset=utf-8')
          .header('Cache-Control', 'no-store')
          // The schema describes each line; what is sent is the stream of them.
          .send(lines.stream as unknown as ImportLine)
      );
    },
  );
};
