/**
 * Purges surrogate keys from a Varnish that runs varnish-modules' xkey (docs/content-api.md, "CDN"): one
 * `PURGE` request per batch, the keys space-separated in `xkey-purge`, as the VCL of docs/cdn/varnish.vcl reads
 * them. Batches stay well under Varnish's default header limit (8 KiB).
 */
const BATCH_BYTES = 4_000;
const TIMEOUT_MS = 5_000;

export type PurgeTarget = (keys: readonly string[]) => Promise<void>;

export function varnishTarget(url: string): PurgeTarget {
  return async (keys) => {
    for (const batch of batches(keys)) {
      const response = await fetch(url, {
        method: 'PURGE',
        headers: { 'xkey-purge': batch.join(' ') },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`the CDN refused the purge: ${response.status} ${response.statusText}`);
    }
  };
}

function* batches(keys: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let bytes = 0;
  for (const key of keys) {
    if (batch.length > 0 && bytes + key.length + 1 > BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(key);
    bytes += key.length + 1;
  }
  if (batch.length > 0) yield batch;
}
