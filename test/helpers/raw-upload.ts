import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  /** Every byte was handed to the connection without it failing under the upload. */
  uploaded: boolean;
  /** Request bytes the connection took before the upload ended or failed. */
  written: number;
  responses: RawResponse[];
  /** The server closed or reset the connection. */
  closed: boolean;
}

/** The complete responses at the start of `bytes` (each with a Content-Length, as the server sends them). */
function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) return responses;
    const [statusLine = '', ...lines] = bytes.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const end = headEnd + 4 + Number(headers['content-length'] ?? 0);
    if (end > bytes.length) return responses;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: bytes.subarray(headEnd + 4, end).toString(),
    });
    offset = end;
  }
}

/** `body` in chunked transfer coding, `size` bytes a chunk. */
export function* chunked(body: Buffer, size = 64 * 1024): Generator<Buffer> {
  for (let offset = 0; offset < body.length; offset += size) {
    const chunk = body.subarray(offset, offset + size);
    yield Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  }
  yield Buffer.from('0\r\n\r\n');
}

/**
 * A client over a bare socket that uploads the whole request before it cares about the answer, as
 * Node's `fetch` does, but without its race: whether the server keeps the connection open until the
 * upload ends is seen every time, not only when the reset arrives before the answer is read. The
 * exchange ends once the upload is over and `responses` answers are in, or when the server closes.
 */
export function rawUpload(port: number, request: Iterable<Buffer>, responses = 1, timeoutMs = 20_000) {
  return new Promise<RawExchange>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const result: RawExchange = { uploaded: false, written: 0, responses: [], closed: false };
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => end(new Error(`no end to the exchange within ${timeoutMs} ms`)), timeoutMs);
    let ended = false;
    function end(error?: Error): void {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      result.written = socket.bytesWritten;
      socket.destroy();
      if (error) reject(error);
      else resolve(result);
    }
    function settle(): void {
      if (result.uploaded && result.responses.length >= responses) end();
    }
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      result.responses = parseResponses(received);
      settle();
    });
    const closed = () => {
      if (!ended) result.closed = true;
    };
    socket.on('error', closed);
    socket.on('end', closed);
    socket.on('close', () => {
      closed();
      end();
    });
    socket.once('connect', async () => {
      for (const chunk of request) {
        if (result.closed) return;
        // Waits for each chunk to be taken, so a failure is seen at the chunk it cut off.
        const failed = await new Promise<boolean>((done) => socket.write(chunk, (error) => done(error != null)));
        if (failed) return;
      }
      result.uploaded = true;
      settle();
    });
  });
}
