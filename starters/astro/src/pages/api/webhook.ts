import type { APIRoute } from 'astro';
import { Webhook } from 'standardwebhooks';
import { siteEnv } from '../../../lib/env.mjs';
import { requestRebuild } from '../../../lib/rebuild-queue.mjs';

/**
 * Quire's webhook endpoint for this site (any content event): the Standard Webhooks signature checked against
 * QUIRE_WEBHOOK_SECRET, then a rebuild asked for. The answer comes at once; the rebuild follows the change feed,
 * so the event's own body is not needed beyond its signature.
 */
export const prerender = false;

const MAX_BODY = 1024 * 1024;

export const POST: APIRoute = async ({ request }) => {
  const secret = siteEnv().webhookSecret;
  if (!secret) return json(404, { error: 'This site takes no webhooks: QUIRE_WEBHOOK_SECRET is not set' });
  const body = await request.text();
  if (body.length > MAX_BODY) return json(413, { error: 'Body too large' });
  try {
    new Webhook(secret).verify(body, Object.fromEntries(request.headers));
  } catch {
    return json(401, { error: 'The signature does not verify' });
  }
  requestRebuild();
  return json(202, { rebuilding: true });
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
