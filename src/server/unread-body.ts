import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How much of a body may still be read, and thrown away, once its answer is out (docs/decisions.md).
 * Past it the connection is closed: a client uploading 10 GB must not hold the server for all of it.
 */
export const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

function mayHaveBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * A request answered before its body was read (too large, no key, no such route) keeps its
 * connection until the client has sent the rest, which is read and discarded: a client such as
 * Node's `fetch` uploads its whole body before it looks at the answer, and a connection closed under
 * that upload reaches it as EPIPE or ECONNRESET instead of the answer.
 */
export function discardUnreadBody(request: IncomingMessage, response: ServerResponse, limit = DISCARD_LIMIT_BYTES) {
  if (!mayHaveBody(request)) return;
  // On `prefinish`, before Node's own `finish` handler, which would otherwise dump the rest unbounded.
  response.once('prefinish', () => {
    if (request.complete) return;
    let discarded = 0;
    // Whoever was reading (a multipart parser) is done with it: the answer is out.
    request.unpipe();
    request.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) request.socket.destroy();
    });
    request.resume();
  });
}
