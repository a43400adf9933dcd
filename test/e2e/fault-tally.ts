/**
 * What a load across a dependency's fault got back: every answer either succeeded or was a well-formed 503
 * UNAVAILABLE with Retry-After; anything else is kept, to be shown when the test fails.
 */
export interface FaultTally {
  requests: number;
  ok: number;
  unavailable: number;
  /** The `details.reason` of each 503 seen. */
  reasons: Set<string>;
  /** Answers that were neither: status and the start of the body. */
  other: string[];
  /** 503s without the UNAVAILABLE envelope or without Retry-After. */
  malformed503: string[];
  /** Reads an answer's body and counts it; answers the parsed body of a success, null otherwise. */
  count(response: Response): Promise<unknown>;
}

export function faultTally(): FaultTally {
  const tally: FaultTally = {
    requests: 0,
    ok: 0,
    unavailable: 0,
    reasons: new Set(),
    other: [],
    malformed503: [],
    async count(response) {
      tally.requests += 1;
      const text = await response.text();
      if (response.ok) {
        tally.ok += 1;
        return JSON.parse(text);
      }
      if (response.status === 503) {
        tally.unavailable += 1;
        const body = JSON.parse(text) as { code?: string; details?: { reason?: string } };
        if (body.code !== 'UNAVAILABLE' || !response.headers.get('retry-after')) tally.malformed503.push(text);
        tally.reasons.add(String(body.details?.reason));
        return null;
      }
      tally.other.push(`${response.status} ${text.slice(0, 300)}`);
      return null;
    },
  };
  return tally;
}

/** How many of the posts a load was told were created cannot be read back now. */
export async function missingPosts(
  fetchFrom: (pathname: string, init?: RequestInit) => Promise<Response>,
  key: string,
  ids: Iterable<string>,
): Promise<number> {
  let missing = 0;
  for (const id of ids) {
    const response = await fetchFrom(`/api/v1/external/posts/${id}`, { headers: { 'X-API-Key': key } });
    if (response.status !== 200) missing += 1;
    await response.arrayBuffer();
  }
  return missing;
}
