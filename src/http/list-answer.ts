import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ListAnswer } from '../shared/paging.js';
import { CONTENT_CACHE_CONTROL, etagMatches } from './caching.js';
import { paginatedChunks, paginatedJson } from './pagination.js';
import { sendSerialized } from './serialization.js';

/**
 * The bytes of a list answer above which it is streamed, item by item as the read module loads them, rather
 * than assembled whole: one request then holds about one batch of items in memory (docs/decisions.md,
 * "Memory of one request"), not a page of posts or pages near the limits.
 */
export const STREAM_BYTES = 8 * 1024 * 1024;

/**
 * Sends a page of a list. An ordinary page is assembled and sent as bytes; the external scope's onSend gives it
 * the ETag of its bytes and keeps it in the response cache. A page over STREAM_BYTES is streamed; it is too
 * large for the cache, and its ETag names the workspace's content version, which moves with every write of its
 * content, so a matching If-None-Match is a 304 before anything is loaded.
 */
export async function sendList(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ListAnswer,
): Promise<FastifyReply> {
  if (answer.bytes <= STREAM_BYTES) {
    const data: Buffer[] = [];
    for await (const item of answer.items) data.push(item);
    return sendSerialized(reply, paginatedJson({ ...answer.page, data }));
  }
  const { workspaceId, contentVersion } = request.actor;
  const etag = `"${crypto.hash('sha1', `${workspaceId}\n${contentVersion}\n${request.url}`, 'base64url')}"`;
  reply.header('ETag', etag).header('Cache-Control', CONTENT_CACHE_CONTROL);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(Readable.from(paginatedChunks(answer.page, answer.items)));
}
