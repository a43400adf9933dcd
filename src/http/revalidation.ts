/** Content GETs may be kept by a client, which must revalidate them (the ETag makes that cheap). */
export const CONTENT_CACHE_CONTROL = 'private, no-cache';

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
