import dns from 'node:dns';
import http from 'node:http';
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FORBIDDEN_FORMS,
  hostOf,
  OWN_ADDRESSES,
  PUBLIC_FORMS,
  PUBLIC_INTERFACE,
} from '../../../../test/helpers/webhook-hosts.js';
import { FORBIDDEN_REASON as REASON, guardedLookup, isForbiddenAddress } from './address-guard.js';
import { sendWebhook } from './send.js';

/** Sends to a literal address, failing the test instead of connecting: no traffic leaves loopback. */
function send(url: string) {
  vi.spyOn(http, 'request').mockImplementation(() => {
    throw new Error(`connected to ${url}`);
  });
  return sendWebhook({ url, headers: {}, body: '{}', timeoutMs: 2_000, allowPrivate: false });
}

/** Resolves every name to `address`, as a DNS answer the server does not control could. */
function resolveTo(address: string) {
  const family = address.includes(':') ? 6 : 4;
  vi.spyOn(dns, 'lookup').mockImplementation(((
    _name: string,
    _options: unknown,
    callback: (error: null, addresses: dns.LookupAddress[]) => void,
  ) => callback(null, [{ address, family }])) as unknown as typeof dns.lookup);
}

const lookup = (name: string) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
    guardedLookup(name, {}, (error, address) => resolve({ error, address })),
  );

afterEach(() => vi.restoreAllMocks());

describe('the webhook address guard', () => {
  it.each(FORBIDDEN_FORMS)('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it('accepts public addresses in those forms', () => {
    for (const address of PUBLIC_FORMS) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it('refuses every address of this host’s interfaces, read when it checks', () => {
    const interfaces = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
    expect(interfaces.length).toBeGreaterThan(0);
    for (const { address } of interfaces) expect(isForbiddenAddress(address), address).toBe(true);

    for (const address of OWN_ADDRESSES) expect(isForbiddenAddress(address), address).toBe(false);
    vi.spyOn(os, 'networkInterfaces').mockReturnValue(PUBLIC_INTERFACE);
    for (const address of OWN_ADDRESSES) expect(isForbiddenAddress(address), address).toBe(true);
  });
});

describe('a delivery', () => {
  it.each(FORBIDDEN_FORMS)('to the literal %s (%s) is refused before connecting', async (address) => {
    const url = new URL(`http://${hostOf(address)}:9/hook`);
    const outcome = await send(url.toString());
    // Named as the URL spells it once parsed (`::ffff:10.0.0.1` is `::ffff:a00:1`).
    const written = url.hostname.slice(1, -1);
    expect(outcome).toMatchObject({ statusCode: null, error: `refused to connect to ${written}: ${REASON}` });
  });

  it.each(FORBIDDEN_FORMS)('to a name resolving to %s (%s) is refused on the address resolved', async (address) => {
    resolveTo(address);
    const { error } = await lookup('hooks.example.com');
    expect(error?.message).toBe(`refused to connect to ${address}: ${REASON}`);
  });

  it('to one of this host’s own public addresses, by name or literally, is refused', async () => {
    vi.spyOn(os, 'networkInterfaces').mockReturnValue(PUBLIC_INTERFACE);
    for (const address of OWN_ADDRESSES) {
      resolveTo(address);
      expect((await lookup('hooks.example.com')).error?.message, address).toBe(
        `refused to connect to ${address}: ${REASON}`,
      );
      expect((await send(`http://${hostOf(address)}:9/hook`)).error, address).toBe(
        `refused to connect to ${address}: ${REASON}`,
      );
    }
  });

  it('to a name resolving to a public address is let through to connect', async () => {
    resolveTo('2002:808:808::1');
    expect(await lookup('hooks.example.com')).toEqual({ error: null, address: '2002:808:808::1' });
  });
});
