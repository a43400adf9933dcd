/*
 * The ceiling: a bare node:http server that answers each benchmarked request with the bytes and
 * headers the real server sent for it (captured beforehand), and does nothing else. What autocannon
 * gets from it is what one Node process can serve of the same responses on this machine, the
 * yardstick of the "% of ceiling" column.
 *
 *   node dist/bench/ceiling.js <routes.json> <port>
 *
 * routes.json holds CeilingRoute[] (capture.ts). A request is matched on method, path and X-API-Key;
 * several responses to one request are sent in turn. GET /-/ready answers 200 once listening.
 */
import fs from 'node:fs';
import http from 'node:http';
import { routeKey, type CeilingRoute } from './capture.js';

interface Prepared {
  status: number;
  /** Flat name, value, name, value … as writeHead takes it, with Content-Length. */
  headers: string[];
  body: Buffer;
}

const [routesFile, portText] = process.argv.slice(2);
if (!routesFile || !portText) {
  process.stderr.write('usage: node ceiling.js <routes.json> <port>\n');
  process.exit(2);
}

const table = new Map<string, { responses: Prepared[]; turn: number }>();
for (const route of JSON.parse(fs.readFileSync(routesFile, 'utf8')) as CeilingRoute[]) {
  const responses = route.responses.map((captured) => {
    const body = Buffer.from(captured.bodyBase64, 'base64');
    return {
      status: captured.status,
      headers: [...captured.headers.flat(), 'content-length', String(body.length)],
      body,
    };
  });
  table.set(routeKey(route.method, route.path, route.apiKey), { responses, turn: 0 });
}

const server = http.createServer((request, response) => {
  const key = request.headers['x-api-key'];
  const entry = table.get(routeKey(request.method ?? 'GET', request.url ?? '/', typeof key === 'string' ? key : null));
  // A request body is read to its end, as the real server has to, before the answer goes out.
  request.resume();
  request.once('end', () => {
    if (!entry) {
      response.writeHead(request.url === '/-/ready' ? 200 : 404, { 'content-type': 'text/plain' });
      response.end(request.url === '/-/ready' ? 'ready' : 'no captured response for this request');
      return;
    }
    const answer = entry.responses[entry.turn++ % entry.responses.length]!;
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
});
// Fastify's default, so neither server closes idle keep-alive connections under the load generator.
server.keepAliveTimeout = 72_000;
server.listen(Number(portText), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
