import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from './media-download.js';

describe('downloading a source site’s image', () => {
  const bytes = Buffer.from('a picture, as far as this test knows'.repeat(100));
  let server: http.Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'quire-download-'));
    server = http.createServer((request, response) => {
      if (request.url === '/image.png') return void response.end(bytes);
      if (request.url === '/moved.png') {
        response.writeHead(302, { location: '/image.png' });
        return void response.end();
      }
      if (request.url === '/slow.png') {
        response.writeHead(200);
        response.write('x');
        return; // never ends
      }
      if (request.url === '/endless.png') {
        response.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024);
        const pump = () => {
          while (response.write(chunk));
          response.once('drain', pump);
        };
        return void pump();
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });
  const options = { timeoutMs: 2_000, maxBytes: 1_000_000, allowPrivate: true };
  const file = (name: string) => path.join(dir, name);

  it('keeps the bytes and answers their sha256', async () => {
    const result = await download(`${base}/image.png`, file('a'), options);
    expect(result).toEqual({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(await readFile(file('a'))).toEqual(bytes);
  });

  it('refuses a loopback address under the webhook rules', async () => {
    await expect(download(`${base}/image.png`, file('b'), { ...options, allowPrivate: false })).rejects.toThrow(
      /refused to connect to 127\.0\.0\.1/,
    );
    await expect(
      download(`http://localhost:${new URL(base).port}/image.png`, file('b'), { ...options, allowPrivate: false }),
    ).rejects.toThrow(/refused to connect/);
  });

  it('follows no redirect, and says what the site answered', async () => {
    await expect(download(`${base}/moved.png`, file('c'), options)).rejects.toThrow('the site answered 302');
    await expect(download(`${base}/missing.png`, file('c'), options)).rejects.toThrow('the site answered 404');
  });

  it('stops at the size cap and at the time limit', async () => {
    await expect(download(`${base}/endless.png`, file('d'), { ...options, maxBytes: 200_000 })).rejects.toThrow(
      /over the 200000 bytes allowed/,
    );
    await expect(download(`${base}/slow.png`, file('e'), { ...options, timeoutMs: 300 })).rejects.toThrow(
      'no complete answer within 300 ms',
    );
  });

  it('fetches only http and https', async () => {
    await expect(download('file:///etc/passwd', file('f'), options)).rejects.toThrow('only http and https');
  });
});
