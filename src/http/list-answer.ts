import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectGarbage } from '../shared/gate.js';
import type { ListAnswer } from '../shared/paging.js';
import { CONTENT_CACHE_CONTROL, etagMatches } from './revalidation.js';
import { selectFromItem } from './fields.js';
import { paginatedChunks, paginatedJson } from './pagination.js';
import { sendSerialized } from './serialization.js';

/**
 * The bytes of a list answer above which it is streamed, item by item as the read module loads them, rather
 * than assembled whole: one request then holds about one batch of items in memory (docs/decisions.md,
 * "Memory of one request"), not a page of posts or pages near the limits.
 */
export const STREAM_BYTES = 8 * 1024 * 1024;

/** The list with each item cut to `?fields=`, as it is yielded (http/fields.ts does the rest of a read). */
function withFields(request: FastifyRequest, list: ListAnswer): ListAnswer {
  const fields = request.selectedFields;
  if (!fields) return list;
  request.fieldsApplied = true;
  async function* selected() {
    for await (const item of list.items) yield selectFromItem(item, fields!);
  }
  return { ...list, items: selected() };
}

/**
 * Sends a page of a list. An ordinary page is assembled and sent as bytes; the external scope's onSend gives it
 * the ETag of its bytes and keeps it in the response cache. A page over STREAM_BYTES is streamed; it is too
 * large for the cache, and its ETag names the workspace's content version, which moves with every write of its
 * content, so a matching If-None-Match is a 304 before anything is loaded.
 */
export async function sendList(request: FastifyRequest, reply: FastifyReply, list: ListAnswer): Promise<FastifyReply> {
  const answer = withFields(request, list);
  if (answer.bytes <= STREAM_BYTES) {
    const data: Buffer[] = [];
    for await (const item of answer.items) data.push(item);
    return sendSerialized(reply, paginatedJson({ ...answer.page, data }));
  }
  const { workspaceId, contentVersion } = request.actor;
  const etag = `"${crypto.hash('sha1', `${workspaceId}\n${contentVersion}\n${request.url}`, 'base64url')}"`;
  reply.header('ETag', etag).header('Cache-Control', CONTENT_CACHE_CONTROL);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  // Its last items are garbage once it is sent; an idle process would keep them.
  reply.raw.once('close', collectGarbage);
  return reply.type('application/json; charset=utf-8').send(Readable.from(paginatedChunks(answer.page, answer.items)));
}
