import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import type { ReviewLinksService } from './review-links.service.js';
import { reviewPage, troublePage, unavailablePage, type HtmlAnswer } from './review-page.html.js';

/** Where review links point: `${publicUrl}${REVIEW_PATH}${token}`. */
export const REVIEW_PATH = '/review/';

export interface ReviewPageOptions {
  reviewLinks: ReviewLinksService;
  publicUrl: string;
  /** Whether an error is a dependency away (the database): the page then says to try again, with a 503. */
  unavailable(error: unknown): boolean;
  /**
   * Counts one opening from `ip` against the server's rate limit (app.ts hands it in); answers the seconds to wait
   * when it is over, else null. Each opening costs a signature check and reads.
   */
  throttle(ip: string): Promise<number | null>;
}

function send(reply: FastifyReply, status: number, answer: HtmlAnswer): FastifyReply {
  return reply
    .code(status)
    .headers({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': answer.csp,
      'X-Frame-Options': 'DENY',
    })
    .send(answer.html);
}

/** The one answer to a link that reads nothing, for the front door too (a URL it could not even decode). */
export const sendUnreadableLink = (reply: FastifyReply, publicUrl: string) =>
  send(reply, 404, unavailablePage(publicUrl));

/**
 * The public page of a review link (docs/publishing.md, "Review links"): outside the APIs, no key, no session;
 * the token is the only credential. Whatever cannot be read answers one page, alike for every cause, and no
 * error leaves as the API's JSON.
 */
export const reviewPageRoutes: FastifyPluginAsync<ReviewPageOptions> = async (app, options) => {
  const { reviewLinks, publicUrl } = options;

  // Here too come the refusals of the hooks every route runs (text a database would not store, in the token).
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError && error.status < 500) return sendUnreadableLink(reply, publicUrl);
    if (options.unavailable(error)) {
      request.log.warn({ cause: (error as Error).message }, 'review page: a dependency is away');
      return send(reply.header('Retry-After', '5'), 503, troublePage(publicUrl));
    }
    request.log.error({ err: error }, 'review page failed');
    return send(reply, 500, troublePage(publicUrl));
  });

  // A wildcard, not a parameter: a parameter past the router's length limit would be its 400, in JSON.
  for (const url of [REVIEW_PATH.slice(0, -1), `${REVIEW_PATH}*`])
    app.get<{ Params: { '*'?: string } }>(url, async (request, reply) => {
      const wait = await options.throttle(request.ip);
      if (wait !== null) return send(reply.header('Retry-After', String(wait)), 429, troublePage(publicUrl));
      // A HEAD (a link checker, a chat app's preview) reads nothing: only a GET counts as the link being opened.
      const opening = await reviewLinks.open(request.params['*'] ?? '', { count: request.method === 'GET' });
      if (!opening) return sendUnreadableLink(reply, publicUrl);
      return send(reply, 200, reviewPage(opening, { publicUrl, now: Date.now() }));
    });
};
