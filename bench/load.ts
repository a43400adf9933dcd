import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import type { RequestSpec, Scenario } from './scenarios.js';

/*
 * autocannon appends every chunk of every response body to a string, to hand it to checks this
 * benchmark does not use (onResponse, expectBody, verifyBody). Decoding bodies made the client the
 * bottleneck: about 1,700 req/s for a 47 kB PNG from a bare Node server, and a fifth less for JSON
 * lists. Its queue is told to drop body chunks instead; bytes are still counted.
 */
const pipelinedQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as {
  prototype: { addBody(chunk: Buffer): void };
};
pipelinedQueue.prototype.addBody = () => undefined;

export interface LoadSettings {
  connections: number;
  /** Seconds, for `duration` scenarios. */
  duration: number;
  /** Requests in all, for `amount` scenarios. */
  amount: number;
}

export interface LoadResult {
  seconds: number;
  /** Every response, reads and writes. */
  responses: number;
  /** Responses to the scenario's reads (all of them when it has no writes). */
  reads: number;
  readsPerSecond: number;
  /** Responses to the measured kind per second: reads, or writes in a write-only scenario. */
  requestsPerSecond: number;
  /** Latency of the measured kind, in ms; null when nothing came back within the run. */
  p50: number | null;
  p99: number | null;
  writeP50: number | null;
  writeP99: number | null;
  statusCodes: Record<string, number>;
  /** Responses whose status is not the one its request expects. */
  unexpected: number;
  errors: number;
  timeouts: number;
  /** Responses with a 2xx status, as autocannon counts them. */
  ok: number;
}

type TaggedRequest = autocannon.Request & { kind: RequestSpec['kind']; expectStatus: number };

/** The request autocannon is answering on `client` (with one request in flight per connection). */
interface ClientInternals {
  requestIterator: { currentRequest: TaggedRequest };
}

function percentile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

class Latencies {
  #values = new Float64Array(1 << 14);
  #size = 0;

  add(ms: number): void {
    if (this.#size === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#size++] = ms;
  }

  get size(): number {
    return this.#size;
  }

  percentiles(): { p50: number | null; p99: number | null } {
    const sorted = this.#values.slice(0, this.#size).sort();
    const round = (ms: number) => Math.round(ms * 100) / 100;
    if (sorted.length === 0) return { p50: null, p99: null };
    return { p50: round(percentile(sorted, 0.5)), p99: round(percentile(sorted, 0.99)) };
  }
}

/** The scenario's requests as autocannon takes them; bodies go in turn across every connection. */
function autocannonRequests(scenario: Scenario): TaggedRequest[] {
  return scenario.requests.map((spec) => {
    const headers: Record<string, string> = {};
    if (spec.apiKey !== null) headers['x-api-key'] = spec.apiKey;
    if (spec.bodies.length > 0) headers['content-type'] = 'application/json';
    if (spec.acceptEncoding !== undefined) headers['accept-encoding'] = spec.acceptEncoding;
    const request: TaggedRequest = {
      method: spec.method,
      path: spec.path,
      headers,
      kind: spec.kind,
      expectStatus: spec.expectStatus,
    };
    if (spec.bodies.length === 1) request.body = spec.bodies[0]!;
    if (spec.bodies.length > 1) {
      let turn = 0;
      request.setupRequest = (req) => ({ ...req, body: spec.bodies[turn++ % spec.bodies.length]! });
    }
    return request;
  });
}

/**
 * One autocannon run of the scenario against `baseUrl`, bounded in time either way (an `amount`
 * run is stopped after three times its expected length). Latencies are kept per response, to the
 * hundredth of a ms, and split into reads and writes by the request each response answers.
 */
export function drive(baseUrl: string, scenario: Scenario, settings: LoadSettings): Promise<LoadResult> {
  const hasReads = scenario.requests.some((spec) => spec.kind === 'read');
  const reads = new Latencies();
  const writes = new Latencies();
  const statusCodes: Record<string, number> = {};
  let unexpected = 0;
  let errors = 0;
  let timeouts = 0;

  return new Promise((resolve, reject) => {
    const byAmount = scenario.bounded === 'amount';
    const startedAt = performance.now();
    let lastAt = startedAt;
    const instance = autocannon(
      {
        url: baseUrl,
        connections: settings.connections,
        pipelining: 1,
        timeout: 10,
        requests: autocannonRequests(scenario),
        ...(byAmount ? { amount: Math.max(settings.amount, settings.connections) } : { duration: settings.duration }),
      },
      (error, result) => {
        clearTimeout(guard);
        if (error) return reject(error);
        // autocannon ends a run on its once-a-second tick; the last answer says when the work really ended.
        const seconds = lastAt > startedAt ? (lastAt - startedAt) / 1000 : result.duration;
        const measured = hasReads ? reads : writes;
        const { p50, p99 } = measured.percentiles();
        const written = writes.size > 0 && hasReads ? writes.percentiles() : null;
        resolve({
          seconds,
          responses: reads.size + writes.size,
          reads: reads.size,
          readsPerSecond: Math.round(reads.size / seconds),
          requestsPerSecond: Math.round(measured.size / seconds),
          p50,
          p99,
          writeP50: written?.p50 ?? null,
          writeP99: written?.p99 ?? null,
          statusCodes,
          unexpected,
          errors,
          timeouts,
          ok: result['2xx'],
        });
      },
    );
    // An amount-bounded run that stalls (a server that stopped answering) still ends.
    const guard = setTimeout(
      () => instance.stop(),
      byAmount ? Math.max(30_000, settings.duration * 3_000) : settings.duration * 1_000 + 30_000,
    );
    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      lastAt = performance.now();
      const request = (client as unknown as ClientInternals).requestIterator.currentRequest;
      (request.kind === 'read' ? reads : writes).add(responseTime);
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode !== request.expectStatus) unexpected += 1;
    });
    instance.on('reqError', (error: Error) => {
      errors += 1;
      if (error.message.includes('timed out')) timeouts += 1;
    });
  });
}
