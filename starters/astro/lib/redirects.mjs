// @ts-check

/**
 * The redirects Quire holds, applied by the site's server to any path it has no page for. Each redirect is
 * `{fromPath, toPath, statusCode}`; a path is compared without its trailing slash.
 *
 * @param {Array<Record<string, any>>} redirects @param {string} pathname
 * @returns {{ location: string, status: number } | null}
 */
export function redirectFor(redirects, pathname) {
  const byPath = new Map(redirects.map((redirect) => [normalize(redirect.fromPath), redirect]));
  let match = byPath.get(normalize(pathname));
  if (!match) return null;
  const status = match.statusCode ?? 301;
  // A chain is followed to its end here, so a visitor takes one hop; a loop stops where it would repeat.
  const seen = new Set([normalize(pathname)]);
  let location = match.toPath;
  while (location.startsWith('/') && !seen.has(normalize(location)) && (match = byPath.get(normalize(location)))) {
    seen.add(normalize(location));
    location = match.toPath;
  }
  return { location, status };
}

/** @param {string} path */
function normalize(path) {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // A path that does not decode is compared as it came.
  }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
}
