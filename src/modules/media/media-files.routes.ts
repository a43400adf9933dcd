import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import { LOWERCASE_UUID } from '../../shared/schemas.js';
import type { MediaService } from './media.service.js';
import type { ByteRange } from './storage/storage.js';

// Plain strings: a malformed id in a public URL is a 404 like any other wrong address, not a 400.
const FileParams = Type.Object(
  {
    workspaceId: Type.String({ maxLength: 100, [LOWERCASE_UUID]: true }),
    mediaId: Type.String({ maxLength: 100, [LOWERCASE_UUID]: true }),
    filename: Type.String({ maxLength: 300 }),
  },
  { additionalProperties: false },
);

// The size segment is read by one strict function (media.sizes.ts); the longest it accepts has 33 characters.
const DerivativeParams = Type.Object(
  { ...FileParams.properties, variant: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

function matches(header: string | undefined, etag: string): boolean {
  return (
    header !== undefined &&
    (header.trim() === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag))
  );
}

/** What every stored file is answered with, originals and resized copies alike: they never change under a URL. */
function fileHeaders(file: { mimeType: string; createdAt: string }, etag: string) {
  return {
    'Content-Type': file.mimeType,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
    'Last-Modified': new Date(file.createdAt).toUTCString(),
  };
}

/**
 * One `bytes=` range of a file of `size` bytes. Several ranges, an unsatisfiable one or a stale
 * If-Range are ignored, and the whole file is answered: RFC 9110 lets a server do that.
 */
export function byteRange(
  header: string | undefined,
  size: number,
  ifRange: string | undefined,
  etag: string,
): ByteRange | undefined {
  if (!header || (ifRange !== undefined && ifRange !== etag)) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1]!, match[2]!];
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start <= end && start < size ? { start, end } : undefined;
}

/**
 * The public `url` of a media row: outside /api, without a key and without the API's rate limit.
 * Files never change under an id, so they are cacheable for a year. Only raster images are shown
 * inline; SVG and everything else come sandboxed and as attachments, so nothing runs on our origin.
 */
export const mediaFileRoutes: FastifyPluginAsyncTypebox<{ media: MediaService }> = async (app, { media }) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:workspaceId/:mediaId/:filename',
    schema: { params: FileParams, response: ErrorResponses },
    handler: async (request, typedReply) => {
      // The typed reply knows only the error envelope; a file is a stream.
      const reply = typedReply as FastifyReply;
      const { workspaceId, mediaId, filename } = request.params;
      const file = await media.findFile(workspaceId, mediaId, filename);
      const etag = `"${file.id}"`;
      const range = byteRange(request.headers.range, file.size, header(request.headers['if-range']), etag);
      const notModified = matches(request.headers['if-none-match'], etag);
      // Opened before any header is set, so a file missing from storage is a plain 404.
      const body = request.method === 'GET' && !notModified ? await media.readFile(file, range) : undefined;

      reply.headers({ ...fileHeaders(file, etag), 'Accept-Ranges': 'bytes' });
      if (!file.raster) {
        reply.header('Content-Security-Policy', 'sandbox');
        reply.header(
          'Content-Disposition',
          `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
        );
      }
      if (notModified) return reply.code(304).send();
      if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      reply.header('Content-Length', range ? range.end - range.start + 1 : file.size);
      return reply.send(body);
    },
  });

  // A resized copy (media.derivatives.ts): one more path segment than an original, so no filename can collide.
  // A size out of bounds is a 400 naming the parameter (details.issues, `/variant/width` …).
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:workspaceId/:mediaId/:variant/:filename',
    schema: { params: DerivativeParams, response: ErrorResponses },
    handler: async (request, typedReply) => {
      const reply = typedReply as FastifyReply;
      const { workspaceId, mediaId, variant, filename } = request.params;
      const file = await media.findDerivative(workspaceId, mediaId, variant, filename);
      const etag = `"${file.id}"`;
      reply.headers(fileHeaders(file, etag));
      if (matches(request.headers['if-none-match'], etag) || request.method === 'HEAD') {
        file.stream.destroy();
        if (request.method === 'GET') return reply.code(304).send();
      }
      reply.header('Content-Length', file.size);
      return reply.send(request.method === 'GET' ? file.stream : undefined);
    },
  });
};
