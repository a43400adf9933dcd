/** A due delivery the claim may take, oldest due first. */
export interface Candidate {
  id: string;
  workspace_id: string;
  endpoint_id: string;
}

/** The most sends one workspace, and one endpoint, may have under way in a process at once. */
export interface Shares {
  perWorkspace: number;
  perEndpoint: number;
}

/** Sends under way in this process, by workspace and by endpoint. */
export interface Load {
  workspaces: ReadonlyMap<string, number>;
  endpoints: ReadonlyMap<string, number>;
}

/** The workspaces and endpoints that hold their whole share: the claim does not look at their deliveries. */
export function atShare(load: Load, shares: Shares): { workspaces: string[]; endpoints: string[] } {
  const full = (counts: ReadonlyMap<string, number>, share: number) =>
    [...counts].filter(([, count]) => count >= share).map(([id]) => id);
  return {
    workspaces: full(load.workspaces, shares.perWorkspace),
    endpoints: full(load.endpoints, shares.perEndpoint),
  };
}

/**
 * Up to `free` of the candidates, taken in turns between workspaces (the one whose oldest delivery is oldest
 * first), each turn the workspace's oldest whose endpoint has room, no workspace or endpoint past its share. A
 * workspace whose receivers hang thus holds at most its share of the slots, and one with a long backlog
 * delays another's delivery by one turn, not by the backlog.
 */
export function pickFairly(candidates: readonly Candidate[], free: number, load: Load, shares: Shares): string[] {
  const queues = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const queue = queues.get(candidate.workspace_id);
    if (queue) queue.push(candidate);
    else queues.set(candidate.workspace_id, [candidate]);
  }
  const workspaces = new Map(load.workspaces);
  const endpoints = new Map(load.endpoints);
  const chosen: string[] = [];
  let took = true;
  while (took && chosen.length < free) {
    took = false;
    for (const [workspace, queue] of queues) {
      if (chosen.length >= free) break;
      if ((workspaces.get(workspace) ?? 0) >= shares.perWorkspace) continue;
      const index = queue.findIndex((candidate) => (endpoints.get(candidate.endpoint_id) ?? 0) < shares.perEndpoint);
      if (index < 0) continue;
      const [candidate] = queue.splice(index, 1);
      chosen.push(candidate!.id);
      workspaces.set(workspace, (workspaces.get(workspace) ?? 0) + 1);
      endpoints.set(candidate!.endpoint_id, (endpoints.get(candidate!.endpoint_id) ?? 0) + 1);
      took = true;
    }
  }
  return chosen;
}
