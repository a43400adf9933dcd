import http from 'node:http';
import type { RequestSpec, Scenario } from './scenarios.js';

/** One response as the real server sent it, for the ceiling to send again. */
export interface CapturedResponse {
  status: number;
  /** Name/value pairs, without the ones Node's HTTP server sets itself on every response. */
  headers: Array<[string, string]>;
  bodyBase64: string;
}

/** Every response the ceiling answers to one request (method, path and key), sent in turn. */
export interface CeilingRoute {
  method: string;
  path: string;
  apiKey: string | null;
  responses: CapturedResponse[];
}

// Connection management and framing: the ceiling's own Node server writes these.
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function routeKey(method: string, path: string, apiKey: string | null): string {
  return `${method} ${path} ${apiKey ?? ''}`;
}

/** One request over Node's http client, which hands back the bytes as sent (fetch would decode them). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, timeout: 60_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${url} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}

async function captureOne(baseUrl: string, spec: RequestSpec, body: string | undefined): Promise<CapturedResponse> {
  const headers: Record<string, string> = {};
  if (spec.apiKey !== null) headers['x-api-key'] = spec.apiKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  // What autocannon will ask for, so that the ceiling replays the very bytes the server sends it.
  headers['accept-encoding'] = spec.acceptEncoding ?? 'identity';
  const response = await send(`${baseUrl}${spec.path}`, spec.method, headers, body);
  if (response.status !== spec.expectStatus) {
    throw new Error(
      `${spec.method} ${spec.path} answered ${response.status}, not ${spec.expectStatus}: ${response.bytes.toString('utf8').slice(0, 500)}`,
    );
  }
  const kept: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) kept.push([name, one]);
  }
  return { status: response.status, headers: kept, bodyBase64: response.bytes.toString('base64') };
}

/**
 * Sends each of the scenario's requests once (each body once) and keeps the answers. This also
 * checks the scenario before it is measured: a wrong status stops the benchmark with the body.
 */
export async function captureScenario(baseUrl: string, scenario: Scenario): Promise<CeilingRoute[]> {
  const routes: CeilingRoute[] = [];
  for (const spec of scenario.requests) {
    const responses: CapturedResponse[] = [];
    for (const body of spec.bodies.length > 0 ? spec.bodies : [undefined])
      responses.push(await captureOne(baseUrl, spec, body));
    routes.push({ method: spec.method, path: spec.path, apiKey: spec.apiKey, responses });
  }
  return routes;
}

/** The body size of the scenario's measured response: its first read, or its first write. */
export function responseBytes(scenario: Scenario, routes: CeilingRoute[]): number {
  const index = Math.max(
    0,
    scenario.requests.findIndex((spec) => spec.kind === 'read'),
  );
  return Buffer.from(routes[index]!.responses[0]!.bodyBase64, 'base64').length;
}
