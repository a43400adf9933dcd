// @ts-check
import { siteEnv } from './env.mjs';

/**
 * A path a visitor found nothing at, reported to Quire's link health (it lists each path with its hits and where
 * they came from), when the site holds a key allowed to (QUIRE_REPORT_KEY). Sent after the answer and bounded in
 * time: a slow or absent Quire never delays a visitor.
 *
 * @param {string} path @param {string | null} referrer
 * @returns {Promise<boolean>} whether Quire took the report
 */
export async function reportBrokenLink(path, referrer) {
  const env = siteEnv();
  if (!env.reportKey) return false;
  try {
    const response = await fetch(`${env.quireUrl}/api/v1/external/link-health`, {
      method: 'POST',
      headers: { 'x-api-key': env.reportKey, 'content-type': 'application/json' },
      body: JSON.stringify({ path: path.slice(0, 2000), referrer: referrer?.slice(0, 2000) || null, statusCode: 404 }),
      signal: AbortSignal.timeout(2000),
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
