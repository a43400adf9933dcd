import { Worker } from 'node:worker_threads';

/** What the worker saw: the answer, or the code of the error fetch failed with (EPIPE, ECONNRESET, …). */
export type WorkerFetchResult =
  { status: number; headers: Record<string, string>; body: string } | { error: string; message: string };

export interface WorkerFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Sent as a stream in 64 KiB chunks (Transfer-Encoding: chunked), rather than with a Content-Length. */
  streamed: boolean;
  timeoutMs?: number;
}

// Plain JavaScript: an `eval` worker is not compiled by the test runner.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, method, headers, body, streamed, timeoutMs } = workerData;
const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
function chunks() {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 65536));
      offset += 65536;
    },
  });
}
(async () => {
  try {
    const response = await fetch(url, {
      method,
      headers,
      signal: AbortSignal.timeout(timeoutMs),
      ...(streamed ? { body: chunks(), duplex: 'half' } : { body: bytes }),
    });
    const text = await response.text();
    parentPort.postMessage({ status: response.status, headers: Object.fromEntries(response.headers), body: text });
  } catch (error) {
    const cause = error.cause ?? error;
    parentPort.postMessage({ error: String(cause.code ?? cause.name), message: String(cause.message) });
  }
})();
`;

/**
 * Node's global `fetch`, run on a worker thread: a client with an event loop of its own, as a client
 * in another process has. On the server's own loop fetch always reads the answer before it learns
 * that the connection was closed under its upload, which hides the failure real clients see.
 */
export async function fetchFromWorker(request: WorkerFetchRequest): Promise<WorkerFetchResult> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { ...request, timeoutMs: request.timeoutMs ?? 20_000 },
  });
  try {
    return await new Promise<WorkerFetchResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the fetch worker exited with code ${code} before answering`)));
    });
  } finally {
    await worker.terminate();
  }
}
