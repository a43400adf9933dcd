import { finished, PassThrough, type Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, invalid } from '../../errors.js';
import { ErrorResponses } from '../../http/responses.js';
import { tooLarge } from './media.inspector.js';
import { Media } from './media.schemas.js';
import type { MediaService, UploadPart } from './media.service.js';

/** Room for the fields, part headers and boundaries around the file (contract §7: total size is capped). */
const ENVELOPE_BYTES = 64 * 1024;
// Caps of contract §7: one file, the two text fields, nothing else.
const LIMITS = { files: 1, fields: 2, parts: 3, fieldSize: 16 * 1024, fieldNameSize: 100, headerPairs: 20 };

const malformed = () => badRequest('The multipart body could not be read', { reason: 'malformed_multipart' });

/** The multipart parser's errors, in the catalog; anything it did not name is a malformed body. */
function multipartError(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return invalid([{ in: 'body', path: '/file', message: 'send exactly one file part' }]);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalid([
        { in: 'body', path: '', message: 'send one file part named file and at most the fields alt and caption' },
      ]);
    default:
      return malformed();
  }
}

/**
 * The file's bytes with the parser's errors already in the catalog; destroying it (the service does
 * when it refuses the part) stops the parser feeding it.
 */
function filePart(file: Readable, maxBytes: number): Readable {
  const out = new PassThrough();
  // `finished` also reports a part the parser had already failed before it was handed over.
  finished(file, (error) => {
    if (error) out.destroy(multipartError(error, maxBytes));
  });
  out.on('close', () => file.destroy());
  return file.pipe(out);
}

async function* uploadParts(request: FastifyRequest, maxBytes: number): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) {
    throw badRequest('Send the upload as multipart/form-data with the file in a part named file', {
      reason: 'unsupported_media_type',
    });
  }
  const declared = Number(request.headers['content-length']);
  if (declared > maxBytes + ENVELOPE_BYTES) throw tooLarge(maxBytes);
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Awaited<ReturnType<typeof parts.next>>['value']>;
    try {
      next = await parts.next();
    } catch (error) {
      throw multipartError(error, maxBytes);
    }
    if (next.done) return;
    const part = next.value;
    if (part.type === 'file') {
      yield { type: 'file', fieldname: part.fieldname, filename: part.filename, stream: filePart(part.file, maxBytes) };
    } else {
      // A part sent as application/json arrives parsed; the fields here are plain text.
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      yield { type: 'field', fieldname: part.fieldname, value, truncated: part.valueTruncated };
    }
  }
}

/**
 * POST /media in a scope of its own: the multipart parser exists only here, so every other route
 * keeps refusing multipart (and anything but JSON) with 400 unsupported_media_type.
 */
export const mediaUploadRoute: FastifyPluginAsyncTypebox<{ media: MediaService; maxUploadBytes: number }> = async (
  app,
  { media, maxUploadBytes },
) => {
  // busboy stops a file one byte past the limit, so the inspector sees the excess and says so.
  await app.register(fastifyMultipart, { limits: { ...LIMITS, fileSize: maxUploadBytes + 1 } });

  app.post(
    '/media',
    { config: { permission: 'media:write' }, schema: { tags: ['media'], response: { 201: Media, ...ErrorResponses } } },
    async (request, reply) => {
      const created = await media.upload(request.actor, uploadParts(request, maxUploadBytes), {
        maxBytes: maxUploadBytes,
        log: request.log,
      });
      return reply.code(201).send(created);
    },
  );
};
