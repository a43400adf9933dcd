import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, invalid } from '../../errors.js';
import type { ImportFormat } from './import-source.js';
import { IMPORT_FORMATS } from './imports.schemas.js';

/** Room for the two fields, the part headers and the boundaries around the file. */
const ENVELOPE_BYTES = 64 * 1024;
/** Two short fields and one file, nothing else. */
export const IMPORT_MULTIPART_LIMITS = {
  files: 1,
  fields: 2,
  parts: 3,
  fieldSize: 100,
  fieldNameSize: 100,
  headerPairs: 20,
};

/** An export over the limit: 413, so a client tells it from a refused value (its envelope says why). */
class ImportTooLarge extends AppError {
  override readonly status = 413;
}

const tooLarge = (maxBytes: number) =>
  new ImportTooLarge('BAD_REQUEST', `The file is larger than the import limit of ${maxBytes} bytes`, {
    reason: 'too_large',
    maxBytes,
  });

const issue = (path: string, message: string) => invalid([{ in: 'body', path, message }]);

export interface ImportUpload {
  format: ImportFormat;
  dryRun: boolean;
  /** The file as saved, under the name the person's file had: the readers name it in what they say. */
  file: string;
}

/**
 * The name the upload is saved under: the client's base name with anything a file system or a message would
 * trip on made a hyphen (NUL, lone surrogates, separators), never hidden, the end (its extension) kept.
 */
export function storedName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}._ ()-]+/gu, '-')
    .replace(/^[.\s-]+/, '')
    .slice(-120);
  return cleaned === '' ? 'upload' : cleaned;
}

function formatOf(value: string | undefined): ImportFormat {
  if (value === undefined) throw issue('/format', 'send the field format before the file');
  const format = IMPORT_FORMATS.find((known) => known === value);
  if (!format) throw issue('/format', `must be one of ${IMPORT_FORMATS.join(', ')}`);
  return format;
}

function dryRunOf(value: string | undefined): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw issue('/dryRun', value === undefined ? 'send the field dryRun before the file' : 'must be true or false');
}

/** The parser's own refusals in the catalog: past the size limit 413, a part too many 400, the rest malformed. */
function multipartError(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return issue('/file', 'send exactly one file part');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return issue('', 'send the fields format and dryRun, then one file part named file');
    default:
      return badRequest('The multipart body could not be read', { reason: 'malformed_multipart' });
  }
}

/**
 * Reads the Import screen's multipart body: the fields `format` and `dryRun`, then the part `file`, which is
 * streamed into `dir` and counted (past `maxBytes` it is refused). The fields come first so that a wrong one is
 * refused before a byte of a large file is stored.
 */
export async function receiveImportUpload(
  request: FastifyRequest,
  dir: string,
  maxBytes: number,
): Promise<ImportUpload> {
  if (!request.isMultipart()) {
    throw badRequest('Send the import as multipart/form-data: the fields format and dryRun, then the file', {
      reason: 'unsupported_media_type',
    });
  }
  if (Number(request.headers['content-length']) > maxBytes + ENVELOPE_BYTES) throw tooLarge(maxBytes);
  const fields = new Map<string, string>();
  let upload: ImportUpload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== 'format' && part.fieldname !== 'dryRun')
          throw issue(`/${part.fieldname}`, 'is not a field of an import');
        fields.set(part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
        continue;
      }
      if (part.fieldname !== 'file') throw issue('/file', 'send the export in a part named file');
      const format = formatOf(fields.get('format'));
      const dryRun = dryRunOf(fields.get('dryRun'));
      const file = path.join(dir, storedName(part.filename));
      await pipeline(part.file, createWriteStream(file));
      upload = { format, dryRun, file };
    }
  } catch (error) {
    throw multipartError(error, maxBytes);
  }
  if (!upload) {
    formatOf(fields.get('format'));
    dryRunOf(fields.get('dryRun'));
    throw issue('/file', 'send the export in a part named file');
  }
  return upload;
}
